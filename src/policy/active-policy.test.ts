/**
 * The reload poll (COUNTERSIGN_POLICY_RELOAD_INTERVAL, every 5 s by default) runs on the serving
 * process under load: files that have not changed since the bundle in force (or since a refused
 * candidate) are recognised by their digest and not compiled again, because compiling blocks the
 * event loop. A changed file is compiled, tested and applied as before.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { silentLogger } from "../log.js";
import { ActivePolicy } from "./active-policy.js";
import * as load from "./load.js";

vi.mock("./load.js", async (actual) => {
  const real = await actual<typeof import("./load.js")>();
  return { ...real, bundleFromFiles: vi.fn(real.bundleFromFiles) };
});
const compiled = vi.mocked(load.bundleFromFiles);

const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

const policy = (version: string, allow: boolean) => `version: "${version}"\ndefault: deny\nrules:\n  - id: r\n    decision: ${allow ? "allow" : "deny"}\n    when: true\n`;
const CASES = `cases:\n  - name: allowed\n    transaction: {name: vaults/v1/transactions/t1, details: {evmAccountDelegation: {}}}\n    expect: allow\n`;

async function bundleDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "countersign-reload-"));
  made.push(dir);
  await writeFile(path.join(dir, "policy.yaml"), policy("1", true));
  await mkdir(path.join(dir, "tests"));
  await writeFile(path.join(dir, "tests", "cases.yaml"), CASES);
  return dir;
}

describe("policy reload poll", () => {
  beforeEach(() => {
    compiled.mockClear();
  });

  it("does not compile files that are unchanged since the bundle in force; compiles and applies a change", async () => {
    const dir = await bundleDir();
    const active = await ActivePolicy.load(dir, silentLogger);
    compiled.mockClear(); // what boot compiled; the reloads' compiles are counted from here
    const digest = active.current().digest;
    expect(await active.reload()).toBe(false);
    expect(await active.reload()).toBe(false);
    expect(compiled).not.toHaveBeenCalled();
    expect(active.current().digest).toBe(digest);

    await writeFile(path.join(dir, "policy.yaml"), policy("2", true));
    expect(await active.reload()).toBe(true);
    expect(compiled).toHaveBeenCalledTimes(1);
    expect(active.current().version).toBe("2");
    expect(await active.reload()).toBe(false);
    expect(compiled).toHaveBeenCalledTimes(1);
  });

  it("does not compile a refused candidate again while its files stay the same; the bundle in force keeps serving", async () => {
    const dir = await bundleDir();
    const active = await ActivePolicy.load(dir, silentLogger);
    compiled.mockClear(); // what boot compiled; the reloads' compiles are counted from here
    await writeFile(path.join(dir, "policy.yaml"), policy("2", false)); // its own case now fails
    expect(await active.reload()).toBe(false);
    expect(active.status().lastReloadFailedCases.map((c) => c.name)).toEqual(["allowed"]);
    expect(await active.reload()).toBe(false);
    expect(compiled).toHaveBeenCalledTimes(1);
    expect(active.current().version).toBe("1");
  });
});

describe("windows and the ledger's retention", () => {
  const windowed = (version: string, duration: string) =>
    `version: "${version}"\ndefault: deny\nwindows:\n  - {name: monthly, duration: ${duration}, groupBy: [sourceWallet, asset], measure: amount}\nrules:\n  - id: r\n    decision: allow\n    when: true\n`;

  it("refuses at load a bundle whose window outlasts the retention, and admits one that fits it", async () => {
    const dir = await bundleDir();
    await writeFile(path.join(dir, "policy.yaml"), windowed("1", "31d"));
    await expect(ActivePolicy.load(dir, silentLogger, { retentionSeconds: 30 * 86_400 })).rejects.toThrow(/"monthly" \(31d\)/);
    const active = await ActivePolicy.load(dir, silentLogger, { retentionSeconds: 31 * 86_400 });
    expect(active.current().windows.map((w) => w.duration)).toEqual(["31d"]);
  });

  it("refuses a reload that lengthens a window past the retention; the bundle in force keeps serving and the status says why", async () => {
    const dir = await bundleDir();
    await writeFile(path.join(dir, "policy.yaml"), windowed("1", "30d"));
    const active = await ActivePolicy.load(dir, silentLogger, { retentionSeconds: 30 * 86_400 });
    await writeFile(path.join(dir, "policy.yaml"), windowed("2", "60d"));
    expect(await active.reload()).toBe(false);
    expect(active.current().version).toBe("1");
    expect(active.status().lastReloadError).toMatch(/COUNTERSIGN_LEDGER_RETENTION, 30d\): "monthly" \(60d\)/);
  });
});
