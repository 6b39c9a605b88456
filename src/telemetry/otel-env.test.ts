import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { nameTheService, telemetryWanted } from "./otel-env.js";

describe("telemetryWanted: the standard OTEL_* variables, off by default", () => {
  it.each([
    [{}, false],
    [{ OTEL_SERVICE_NAME: "countersign" }, false],
    [{ OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=prod" }, false],
    [{ OTEL_TRACES_EXPORTER: "none", OTEL_METRICS_EXPORTER: "none" }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: " " }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" }, true],
    [{ OTEL_METRICS_EXPORTER: "prometheus" }, true],
    [{ OTEL_TRACES_EXPORTER: "none,otlp" }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: " TRUE " }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "false" }, true],
  ])("%j -> %s", (env, wanted) => {
    expect(telemetryWanted(env)).toBe(wanted);
  });
});

const ROOT = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

/**
 * Loads instrument.ts the way production does (`--import`) in a fresh process, then reports
 * which providers are registered with @opentelemetry/api.
 */
async function providersAfterImport(env: Record<string, string>): Promise<{ tracer: string; meter: string; shutdownHook: boolean }> {
  const probe = [
    'import { metrics, trace } from "@opentelemetry/api";',
    "const tracer = trace.getTracerProvider().getDelegate().constructor.name;",
    "const meter = metrics.getMeterProvider().constructor.name;",
    'const shutdownHook = Symbol.for("countersign.telemetry.shutdown") in globalThis;',
    "console.log(JSON.stringify({ tracer, meter, shutdownHook }));",
    "process.exit(0);",
  ].join("\n");
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("OTEL_")));
  const { stdout } = await run(process.execPath, ["--import", "tsx", "--import", "./src/telemetry/instrument.ts", "--input-type=module", "-e", probe], {
    cwd: ROOT,
    env: { ...clean, ...env },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as { tracer: string; meter: string; shutdownHook: boolean };
}

describe("the --import file", () => {
  it("starts nothing without OTEL variables, with OTEL_SDK_DISABLED=true, or with only a service name", async () => {
    const results = await Promise.all([
      providersAfterImport({}),
      providersAfterImport({ OTEL_SDK_DISABLED: "true", OTEL_TRACES_EXPORTER: "console", OTEL_METRICS_EXPORTER: "console" }),
      providersAfterImport({ OTEL_SERVICE_NAME: "countersign" }),
    ]);
    for (const result of results) expect(result).toEqual({ tracer: "NoopTracerProvider", meter: "NoopMeterProvider", shutdownHook: false });
  });

  it("starts the SDK when an exporter is named", async () => {
    const result = await providersAfterImport({ OTEL_TRACES_EXPORTER: "console", OTEL_METRICS_EXPORTER: "console", OTEL_LOGS_EXPORTER: "none" });
    expect(result.tracer).not.toBe("NoopTracerProvider");
    expect(result.meter).not.toBe("NoopMeterProvider");
    expect(result.shutdownHook).toBe(true);
  });
});

describe("nameTheService: countersign unless the operator names the service", () => {
  it.each([
    [{}, "countersign"],
    [{ OTEL_SERVICE_NAME: " " }, "countersign"],
    [{ OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=prod" }, "countersign"],
    [{ OTEL_SERVICE_NAME: "treasury-policy" }, "treasury-policy"],
    [{ OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=prod, service.name=treasury-policy" }, undefined],
  ])("%j names the service %s", (given, name) => {
    const env: NodeJS.ProcessEnv = { ...given };
    nameTheService(env);
    expect(env.OTEL_SERVICE_NAME).toBe(name);
  });
});
