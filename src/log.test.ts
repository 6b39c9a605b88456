import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import express from "express";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestContext } from "./http/request-context.js";
import { createLogger, logLevelFrom } from "./log.js";
import { requestIdOf } from "./http/envelope.js";
import { traced } from "./telemetry/tracing.js";

function capture(level?: "debug" | "info" | "warn" | "error") {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ ...(level ? { level } : {}), write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

describe("log lines", () => {
  it("are JSON with an ISO time, the level by name and the message", () => {
    const { logger, lines } = capture();
    logger.info({ transaction: "vaults/v/transactions/t" }, "decision");
    expect(lines).toEqual([
      expect.objectContaining({ level: "info", msg: "decision", transaction: "vaults/v/transactions/t", time: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) }),
    ]);
  });

  it("drop levels below the configured one", () => {
    const { logger, lines } = capture("warn");
    logger.info({}, "quiet");
    logger.error({}, "loud");
    expect(lines.map((l) => l.msg)).toEqual(["loud"]);
  });

  it("take the level from COUNTERSIGN_LOG_LEVEL, then LOG_LEVEL, and fall back to info", () => {
    expect(logLevelFrom({ COUNTERSIGN_LOG_LEVEL: "debug", LOG_LEVEL: "error" })).toBe("debug");
    expect(logLevelFrom({ LOG_LEVEL: "WARN" })).toBe("warn");
    expect(logLevelFrom({ LOG_LEVEL: "verbose" })).toBe("info");
    expect(logLevelFrom({})).toBe("info");
  });

  it("redact credentials and bodies whatever a caller passes", () => {
    const { logger, lines } = capture();
    logger.warn({ token: "t0ken", headers: { authorization: "Bearer t0ken" }, body: { amount: "1" }, databaseUrl: "postgres://u:pw@db/x" }, "oops");
    expect(JSON.stringify(lines)).not.toMatch(/t0ken|pw@db|amount/);
    expect(lines[0]).toMatchObject({ token: "[redacted]", headers: { authorization: "[redacted]" }, body: "[redacted]" });
  });

  it("redact a request's headers two levels down, and keep the rest of the line", () => {
    const { logger, lines } = capture();
    logger.info({ req: { method: "POST", headers: { cookie: "s=t0ken", "x-service-signature": "c2ln", accept: "*/*" } } }, "request");
    expect(JSON.stringify(lines)).not.toMatch(/t0ken|c2ln/);
    expect(lines[0]).toMatchObject({ msg: "request", req: { method: "POST", headers: { cookie: "[redacted]", "x-service-signature": "[redacted]", accept: "*/*" } } });
  });

  it("carry the request id a handler names, the one answered in X-Request-Id, after asynchronous work", async () => {
    const { logger, lines } = capture();
    const app = express();
    app.use(requestContext);
    app.post("/x", express.raw({ type: () => true }), async (_req, res) => {
      await new Promise((resolve) => setTimeout(resolve, 5)); // the handler's asynchronous work: the scenario, not a wait
      logger.info({ requestId: requestIdOf(res) }, "handled");
      res.end();
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/x`, { method: "POST", headers: { "x-request-id": "abc-123" }, body: "{}" });
      expect(response.status).toBe(200);
    } finally {
      server.close();
    }
    expect(lines).toEqual([expect.objectContaining({ msg: "handled", requestId: "abc-123" })]);
  });

  describe("with a tracer registered", () => {
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())] });
    beforeAll(() => {
      context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
      trace.setGlobalTracerProvider(provider);
    });
    afterAll(() => {
      trace.disable();
      context.disable();
    });

    it("carry the trace and span ids of the active span", async () => {
      const { logger, lines } = capture();
      let ids: { traceId: string; spanId: string } | undefined;
      await traced("work", async (span) => {
        ids = span.spanContext();
        await Promise.resolve();
        logger.info({}, "in a span");
      });
      logger.info({}, "no span");
      expect(lines[0]).toMatchObject({ traceId: ids!.traceId, spanId: ids!.spanId });
      expect(lines[1]).not.toHaveProperty("traceId");
    });
  });
});
