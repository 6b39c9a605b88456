import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fmtCpuPer, fmtMachineCpu, parentIfNamed, parseProcStat, processTicks, serverTicks, splitBetween, withCpuSplit } from "../../../bench/cpu-split.js";

describe("the CPU split printed beside each bench figure", () => {
  it("reads steal and idle (with iowait) as shares of all ticks between two samples", () => {
    // user nice system idle iowait irq softirq steal
    const split = splitBetween([100, 0, 50, 1000, 10, 0, 5, 20], [160, 0, 70, 1080, 20, 0, 5, 50]);
    expect(split).toEqual({ stealPct: 15, idlePct: 45 });
    expect(fmtMachineCpu(split)).toBe("   steal 15%   idle 45%");
  });

  it("prints nothing when no time passed or the split could not be read", () => {
    expect(splitBetween([1, 2, 3], [1, 2, 3])).toBeNull();
    expect(fmtMachineCpu(null)).toBe("");
  });

  it("hands back what the measured work returned", async () => {
    const { value } = await withCpuSplit(async () => 42);
    expect(value).toBe(42);
  });

  it("reads a process's CPU time after a command name holding spaces and parentheses", () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime ...
    const stat = "4242 (node (a) b) S 17 4242 4242 0 -1 4194560 100 0 0 0 250 30 7 3 20 0 11 0";
    expect(parseProcStat(stat)).toEqual({ ppid: 17, own: 280, reaped: 10 });
    expect(parseProcStat("1 (x) S 0")).toBeNull();
  });

  it("reports the CPU time a watched process spent during the run, per unit of work", async () => {
    const { cpu } = await withCpuSplit(
      async () => {
        // 100 ms of this process's CPU, however long the machine takes to give it
        const start = process.cpuUsage();
        const used = () => process.cpuUsage(start);
        while (used().user + used().system < 100_000) Math.sqrt(Math.random());
      },
      { bench: processTicks(process.pid), gone: () => null },
    );
    expect(cpu?.processMs?.bench).toBeGreaterThanOrEqual(80);
    expect(cpu?.processMs).not.toHaveProperty("gone");
    expect(fmtCpuPer("decision", 100, { service: 171, postgres: 164 })).toBe("cpu per decision: service 1.71 ms   postgres 1.64 ms");
    expect(fmtCpuPer("decision", 100, {})).toBe("");
  });

  it("never loses the time of children their parent waits for while the server's reading walks /proc", async () => {
    // A stand-in postmaster: a shell whose children each burn CPU and exit together, and which
    // waits for them (as the postmaster does for a run's backends) on its own schedule. It outlives
    // the readings (killed below): on a loaded machine a 2 s nap ended before the loop saw the
    // children reaped, and its /proc entry was gone.
    const burn = "i=0; while [ $i -lt 150000 ]; do i=$((i+1)); done";
    const parent = spawn("sh", ["-c", `for n in 1 2 3 4 5 6; do sh -c '${burn}' & done; wait; sleep 60`], { stdio: "ignore" });
    try {
      const read = serverTicks(parent.pid!);
      const readings: number[] = [];
      const reaped = () => parseProcStat(readFileSync(`/proc/${parent.pid}/stat`, "utf8"))!.reaped;
      const deadline = Date.now() + 20_000;
      // until all six are waited for: each reading is the children's time so far, never less
      while (Date.now() < deadline) {
        const t = read();
        if (typeof t === "number") readings.push(t);
        if (readings.length > 5 && reaped() > 0 && !readdirSync("/proc").some((p) => /^[0-9]+$/.test(p) && parseProcStat(safeRead(`/proc/${p}/stat`))?.ppid === parent.pid)) break;
        await new Promise((r) => setImmediate(r));
      }
      expect(readings.length).toBeGreaterThan(5);
      for (let k = 1; k < readings.length; k++) expect(readings[k]).toBeGreaterThanOrEqual(readings[k - 1]!);
      expect(readings.at(-1)!).toBeGreaterThan(readings[0]!);
    } finally {
      parent.kill();
    }
  });

  it("finds a process's parent only when the process has the expected name", () => {
    expect(parentIfNamed(process.pid, "no-such-name")).toBeNull();
    expect(parentIfNamed(process.pid, readFileSync("/proc/self/comm", "utf8").trim())).toBe(process.ppid);
  });
});

function safeRead(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
