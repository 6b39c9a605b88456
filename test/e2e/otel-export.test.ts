/**
 * OpenTelemetry as production runs it: `countersign serve` (bin/countersign.js, which imports
 * src/telemetry/instrument first) configured only by OTEL_* variables, exporting OTLP/JSON to a
 * collector played by a test HTTP server on loopback. One webhook, then SIGTERM: the spans and
 * metrics must have reached the collector when the process has exited.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assetTransfer } from "../support/bodies.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { EXAMPLE_POLICIES, exampleEnvFor } from "../support/example-bundle.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TOKEN = "otel-export-webhook-token-4f1c";

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: Record<string, unknown> }[];
}

/** A collector: keeps every OTLP/JSON body it receives, by path. */
async function startCollector(): Promise<{ server: Server; url: string; bodies: Map<string, string[]> }> {
  const bodies = new Map<string, string[]>();
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      bodies.set(req.url ?? "", [...(bodies.get(req.url ?? "") ?? []), body]);
      res.setHeader("content-type", "application/json");
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies };
}

function spansIn(bodies: string[]): { scope: string; span: OtlpSpan }[] {
  type Export = { resourceSpans?: { scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[] };
  return bodies.flatMap((b) => ((JSON.parse(b) as Export).resourceSpans ?? []).flatMap((r) => r.scopeSpans.flatMap((s) => s.spans.map((span) => ({ scope: s.scope.name, span })))));
}

function metricNamesIn(bodies: string[]): Set<string> {
  type Export = { resourceMetrics?: { scopeMetrics: { metrics: { name: string }[] }[] }[] };
  return new Set(bodies.flatMap((b) => ((JSON.parse(b) as Export).resourceMetrics ?? []).flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics.map((m) => m.name)))));
}

const attribute = (span: OtlpSpan, key: string): unknown => {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  return value ? Object.values(value)[0] : undefined;
};

describe("OTLP export from `countersign serve`", () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let tdb: TestDatabase;
  let child: ChildProcess;
  let output = "";
  let transaction: ReturnType<typeof assetTransfer>;
  let answer: Response;

  beforeAll(async () => {
    collector = await startCollector();
    tdb = await createTestDatabase();
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("OTEL_") && !k.startsWith("COUNTERSIGN_")));
    child = spawn(process.execPath, [path.join(ROOT, "bin/countersign.js"), "serve"], {
      cwd: ROOT,
      env: {
        ...inherited,
        DATABASE_URL: tdb.url,
        COUNTERSIGN_HOST: "127.0.0.1",
        COUNTERSIGN_PORT: "0",
        COUNTERSIGN_POLICIES: EXAMPLE_POLICIES,
        ...exampleEnvFor(EXAMPLE_POLICIES),
        COUNTERSIGN_WEBHOOK_TOKEN: TOKEN,
        OTEL_SERVICE_NAME: "countersign-test",
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_LOGS_EXPORTER: "none",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const serving = output.split("\n").find((line) => line.includes('"countersign serving"'));
        if (serving) resolve((JSON.parse(serving) as { url: string }).url);
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      child.once("exit", (code) => reject(new Error(`countersign exited with ${code}:\n${output}`)));
    });
    transaction = assetTransfer();
    // The token in the query string, one of the accepted forms: it must not reach a span.
    answer = await fetch(`${url}/v1/cosigner/webhook?token=${TOKEN}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "otel-export-1" },
      body: JSON.stringify(transaction),
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    collector?.server.close();
    await tdb?.drop();
  });

  it("exports the decision span under the HTTP server span, with pg spans in the same trace", async () => {
    expect(answer.status).toBe(200);
    const spans = spansIn(collector.bodies.get("/v1/traces") ?? []);
    const decisions = spans.filter((s) => s.span.name === "countersign.decision");
    expect(decisions).toHaveLength(1);
    const decision = decisions[0]!.span;
    expect(attribute(decision, "countersign.transaction.name")).toBe(transaction.name);
    expect(attribute(decision, "countersign.decision")).toBe("allow");

    const inTrace = spans.filter((s) => s.span.traceId === decision.traceId);
    const server = inTrace.find((s) => s.scope === "@opentelemetry/instrumentation-http" && s.span.kind === 2)!.span;
    expect(server.parentSpanId ?? "").toBe("");
    expect(attribute(server, "url.query")).toBe("token=REDACTED");
    const byId = new Map(inTrace.map((s) => [s.span.spanId, s.span]));
    let ancestor: OtlpSpan | undefined = decision;
    while (ancestor?.parentSpanId) ancestor = byId.get(ancestor.parentSpanId);
    expect(ancestor).toBe(server);
    expect(inTrace.filter((s) => s.scope === "@opentelemetry/instrumentation-pg").length).toBeGreaterThan(0);
    // The server span is named after the webhook's route.
    expect(server.name).toBe("POST /v1/cosigner/webhook");
    expect(attribute(server, "http.route")).toBe("/v1/cosigner/webhook");
  });

  it("traces the webhook's express request handler in the decision's trace, as every other route's", () => {
    const spans = spansIn(collector.bodies.get("/v1/traces") ?? []);
    const decision = spans.find((s) => s.span.name === "countersign.decision")!.span;
    const express = spans.filter((s) => s.scope === "@opentelemetry/instrumentation-express" && s.span.traceId === decision.traceId);
    const handler = express.find((s) => attribute(s.span, "express.type") === "request_handler");
    expect(handler && attribute(handler.span, "http.route")).toBe("/v1/cosigner/webhook");
  });

  it("exports the service's metrics, and never the webhook token", () => {
    const metrics = metricNamesIn(collector.bodies.get("/v1/metrics") ?? []);
    expect(metrics).toContain("countersign.decisions");
    expect(metrics).toContain("countersign.decision.duration");
    const everything = [...collector.bodies.values()].flat().join("\n");
    expect(everything).not.toContain(TOKEN);
  });

  it("writes the decision's log line with its request id and trace id", () => {
    const traceId = spansIn(collector.bodies.get("/v1/traces") ?? []).find((s) => s.span.name === "countersign.decision")!.span.traceId;
    const line = output.split("\n").find((l) => l.includes('"msg":"decision"'));
    expect(JSON.parse(line!)).toMatchObject({ requestId: "otel-export-1", traceId, transaction: transaction.name });
    expect(output).not.toContain(TOKEN);
  });
});
