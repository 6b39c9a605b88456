/**
 * A shadow candidate whose directory cannot be read (not there yet: a volume not mounted, a typo)
 * has no digest to be recognised by; it still leaves the shadow off, said once, not on every poll,
 * and turns on once the directory holds an admissible bundle.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Logger } from "../log.js";
import { ShadowCandidate } from "./shadow-candidate.js";

const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

function recordingLogger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  const ignore = () => undefined;
  return { errors, debug: ignore, info: ignore, warn: ignore, error: (_fields, msg) => errors.push(msg) };
}

describe("a shadow candidate directory that is missing", () => {
  it("leaves the shadow off, says so once across polls, and turns it on when the bundle appears", async () => {
    const parent = await mkdtemp(path.join(tmpdir(), "countersign-shadow-"));
    made.push(parent);
    const dir = path.join(parent, "candidate");
    const logger = recordingLogger();
    const refusals: (string | undefined)[] = [];
    const shadow = await ShadowCandidate.start(dir, logger, {}, (result, reason) => refusals.push(result === "refused" ? reason : result));
    expect(shadow.current()).toBeNull();
    expect(shadow.status()).toMatchObject({ loaded: false, directory: dir, error: { code: "invalid" } });
    expect(await shadow.reload()).toBe(false);
    expect(await shadow.reload()).toBe(false);
    expect(logger.errors).toHaveLength(1);
    expect(refusals).toEqual(["invalid"]);

    await mkdir(dir);
    await writeFile(path.join(dir, "policy.yaml"), 'version: "candidate.1"\ndefault: deny\nrules: []\n');
    expect(await shadow.reload()).toBe(true);
    expect(shadow.current()?.version).toBe("candidate.1");
    expect(shadow.status()).toMatchObject({ loaded: true, version: "candidate.1", error: null });
    expect(refusals).toEqual(["invalid", "applied"]);
  });
});
