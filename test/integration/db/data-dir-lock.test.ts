/**
 * The embedded data directory's lock: who may take it over (a holder known to be gone) and who may
 * not (a live one, one on another host, an unreadable file). The processes are real.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/database.js";
import { LOCK_FILE, lockDataDir } from "../../../src/db/data-dir-lock.js";
import { scratchDir } from "../../support/scratch.js";

const holderFile = (dir: string, holder: object) => writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify(holder));

/** The id of a process that ran and was reaped: no process has it now (until it is reused). */
async function goneProcessId(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid!;
}

describe("the embedded data directory's lock", () => {
  it("is held once per directory, in this process too, and free again once released", () => {
    const dir = scratchDir("lock");
    const first = lockDataDir(dir);
    expect(first.ok).toBe(true);
    expect(lockDataDir(dir)).toMatchObject({ ok: false, error: { code: "DATA_DIR_LOCKED", holder: { pid: process.pid, hostname: hostname() } } });
    if (first.ok) first.value.release();
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    const again = lockDataDir(dir);
    expect(again.ok).toBe(true);
    if (again.ok) again.value.release();
  });

  it("is taken over from a process of this host that is gone, or from this process's id not held here (a restarted container)", async () => {
    for (const pid of [await goneProcessId(), process.pid]) {
      const dir = scratchDir("lock");
      holderFile(dir, { pid, hostname: hostname(), startTicks: 1, since: "2026-11-25T00:00:00Z" });
      const lock = lockDataDir(dir);
      expect(lock.ok).toBe(true);
      expect(JSON.parse(readFileSync(path.join(dir, LOCK_FILE), "utf8"))).toMatchObject({ pid: process.pid });
      if (lock.ok) lock.value.release();
    }
  });

  it("is not taken over from a live process, from another host, or when the file is unreadable", async () => {
    const live = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { stdio: "ignore" });
    try {
      const holders: (object | string)[] = [
        { pid: live.pid, hostname: hostname(), startTicks: null, since: "" },
        { pid: await goneProcessId(), hostname: `not-${hostname()}`, startTicks: null, since: "" },
        "not json",
      ];
      for (const holder of holders) {
        const dir = scratchDir("lock");
        writeFileSync(path.join(dir, LOCK_FILE), typeof holder === "string" ? holder : JSON.stringify(holder));
        expect(lockDataDir(dir)).toMatchObject({ ok: false, error: { code: "DATA_DIR_LOCKED" } });
      }
    } finally {
      live.kill("SIGKILL");
    }
  });

  it("openDatabase refuses a directory another handle has open, and names the holder", async () => {
    const dir = scratchDir("lock");
    const first = await openDatabase({ dataDir: dir });
    try {
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(`the embedded database is in use by process ${process.pid}`);
    } finally {
      await first.close();
    }
    const reopened = await openDatabase({ dataDir: dir });
    await reopened.close();
  });
});
