/**
 * OTEL_METRICS_EXPORTER=prometheus listens where the service does (COUNTERSIGN_HOST) unless
 * OTEL_EXPORTER_PROMETHEUS_HOST says otherwise: checked on the pure choice, then on a real start of
 * instrument.ts (as production loads it) by connecting to the metrics port on loopback and on
 * another address of this machine.
 */
import { execFile } from "node:child_process";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { networkInterfaces } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { prometheusHost } from "./prometheus-host.js";

describe("prometheusHost", () => {
  it.each([
    [{}, "127.0.0.1"],
    [{ COUNTERSIGN_HOST: "" }, "127.0.0.1"],
    [{ COUNTERSIGN_HOST: "127.0.0.1" }, "127.0.0.1"],
    [{ COUNTERSIGN_HOST: "[::1]" }, "::1"],
    [{ COUNTERSIGN_HOST: "0.0.0.0" }, "0.0.0.0"],
    [{ COUNTERSIGN_HOST: "127.0.0.1", OTEL_EXPORTER_PROMETHEUS_HOST: "0.0.0.0" }, undefined],
    [{ OTEL_EXPORTER_PROMETHEUS_HOST: " " }, "127.0.0.1"],
  ])("%j -> %s", (env, host) => {
    expect(prometheusHost(env)).toBe(host);
  });
});

const ROOT = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

/** An IPv4 address of this machine that is not loopback, if it has one. */
const otherAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a !== undefined && a.family === "IPv4" && !a.internal)?.address;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Starts the SDK in a fresh process the way production does (`--import` of instrument.ts), waits
 * for the metrics port to answer on loopback, then tries each address; reports which connected.
 */
async function reachableAfterStart(env: Record<string, string>, port: number, addresses: string[]): Promise<Record<string, boolean>> {
  const probe = `
    import { connect } from "node:net";
    const attempt = (host) => new Promise((resolve) => {
      const socket = connect({ host, port: ${port} });
      socket.once("connect", () => { socket.destroy(); resolve(true); });
      socket.once("error", () => resolve(false));
    });
    for (let i = 0; i < 100 && !(await attempt("127.0.0.1")); i++) await new Promise((r) => setTimeout(r, 50));
    const result = {};
    for (const host of ${JSON.stringify(addresses)}) result[host] = await attempt(host);
    console.log(JSON.stringify(result));
    process.exit(0);`;
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("OTEL_") && !k.startsWith("COUNTERSIGN_")));
  const { stdout } = await run(process.execPath, ["--import", "tsx", "--import", "./src/telemetry/instrument.ts", "--input-type=module", "-e", probe], {
    cwd: ROOT,
    env: { ...clean, OTEL_METRICS_EXPORTER: "prometheus", OTEL_TRACES_EXPORTER: "none", OTEL_LOGS_EXPORTER: "none", OTEL_EXPORTER_PROMETHEUS_PORT: String(port), ...env },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, boolean>;
}

describe("the Prometheus exporter, started by instrument.ts", () => {
  if (otherAddress === undefined) console.warn("prometheus host tests: this machine has no non-loopback IPv4 address; only loopback is checked");
  const addresses = ["127.0.0.1", ...(otherAddress ? [otherAddress] : [])];

  it.each<Record<string, string>>([{}, { COUNTERSIGN_HOST: "127.0.0.1" }])("listens on loopback only when the service does: %j", async (env) => {
    const port = await freePort();
    const reachable = await reachableAfterStart(env, port, addresses);
    expect(reachable["127.0.0.1"]).toBe(true);
    if (otherAddress) expect(reachable[otherAddress], `metrics port reachable on ${otherAddress}`).toBe(false);
  });

  // What the chart sets: COUNTERSIGN_HOST and OTEL_EXPORTER_PROMETHEUS_HOST both 0.0.0.0.
  it.each([
    { COUNTERSIGN_HOST: "0.0.0.0", OTEL_EXPORTER_PROMETHEUS_HOST: "0.0.0.0" },
    { COUNTERSIGN_HOST: "127.0.0.1", OTEL_EXPORTER_PROMETHEUS_HOST: "0.0.0.0" },
  ])("listens on every interface when told to: %j", async (env) => {
    const port = await freePort();
    const reachable = await reachableAfterStart(env, port, addresses);
    for (const address of addresses) expect(reachable[address], address).toBe(true);
  });
});
