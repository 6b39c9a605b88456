/**
 * OTEL_METRICS_EXPORTER=prometheus, started by instrument.ts as production loads it: its own port
 * answers the same Prometheus text as `GET /metrics` on the service port, names with their unit.
 */
import { execFile } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

it("serves the scrape on OTEL_EXPORTER_PROMETHEUS_PORT with unit suffixes", async () => {
  const port = await freePort();
  // Records through the API as metrics.ts does, then scrapes the port until it answers.
  const probe = `
    import { metrics } from "@opentelemetry/api";
    const meter = metrics.getMeter("countersign");
    meter.createHistogram("countersign.decision.duration", { unit: "s" }).record(0.004, { outcome: "allow" });
    meter.createCounter("countersign.decisions").add(1, { outcome: "allow" });
    let text = "";
    for (let i = 0; i < 100 && text === ""; i++) {
      text = await fetch("http://127.0.0.1:${port}/metrics").then((r) => r.text(), () => "");
      if (text === "") await new Promise((r) => setTimeout(r, 50));
    }
    console.log(JSON.stringify(text));
    process.exit(0);`;
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("OTEL_") && !k.startsWith("COUNTERSIGN_")));
  const { stdout } = await run(process.execPath, ["--import", "tsx", "--import", "./src/telemetry/instrument.ts", "--input-type=module", "-e", probe], {
    cwd: ROOT,
    env: { ...clean, OTEL_METRICS_EXPORTER: "prometheus", OTEL_TRACES_EXPORTER: "none", OTEL_LOGS_EXPORTER: "none", OTEL_EXPORTER_PROMETHEUS_PORT: String(port) },
    timeout: 60_000,
  });
  const text = JSON.parse(stdout.trim().split("\n").at(-1)!) as string;
  expect(text).toContain("# TYPE countersign_decision_duration_seconds histogram");
  expect(text).toMatch(/^countersign_decision_duration_seconds_count\{outcome="allow"[^}]*\} 1$/m);
  expect(text).toMatch(/^countersign_decisions_total\{outcome="allow"[^}]*\} 1$/m);
  expect(text).not.toMatch(/^countersign_decision_duration_count/m);
});
