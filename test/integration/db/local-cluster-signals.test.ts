/**
 * The throwaway cluster a test run starts (test/support/local-cluster.ts) does not outlive the run
 * when the run is ended by SIGINT or SIGTERM (Ctrl-C, a cancelled CI job), which skips every
 * teardown. A child process starts a cluster with the helper, says where its data directory is,
 * and is sent the signal; afterwards no process runs on that data directory.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { findPostgresBinaries } from "../../support/local-cluster.js";

const HELPER = fileURLToPath(new URL("../../support/local-cluster.ts", import.meta.url));

/** Processes whose command line names `dataDir`: the postmaster is started with `-D dataDir`. */
function processesOn(dataDir: string): number[] {
  return readdirSync("/proc")
    .filter((d) => /^[0-9]+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/cmdline`, "utf8").split("\0").includes(dataDir);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** A child holding a cluster until it is signalled: resolves with the child and the cluster's data directory once it serves. */
function clusterInChild(binaries: string) {
  const script = `const { startLocalCluster } = await import(${JSON.stringify(HELPER)}); const c = await startLocalCluster(${JSON.stringify(binaries)}); console.log(c.dataDir); setInterval(() => {}, 60_000);`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? code)));
  const dataDir = new Promise<string>((resolve, reject) => {
    child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once("exit", () => reject(new Error("the child ended before its cluster served")));
  });
  return { child, exited, dataDir };
}

const binaries = findPostgresBinaries();

describe.skipIf(binaries === undefined)("a local cluster's process ended by a signal", () => {
  it.each(["SIGINT", "SIGTERM"] as const)("%s leaves no postgres process on the cluster's data directory", async (signal) => {
    const { child, exited, dataDir } = clusterInChild(binaries!);
    const dir = await dataDir;
    try {
      expect(processesOn(dir)).not.toEqual([]);
      child.kill(signal);
      expect(await exited).toBe(signal);
      await vi.waitFor(() => expect(processesOn(dir)).toEqual([]), { timeout: 30_000, interval: 100 });
    } finally {
      for (const pid of processesOn(dir)) process.kill(pid, "SIGKILL");
    }
  });
});
