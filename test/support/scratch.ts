/**
 * Temporary directories for one test file: made with `scratchDir`, removed once the file's tests
 * are done (a root-level afterAll, registered when a test file first imports this module), so
 * that a run leaves nothing behind in the system's temporary directory.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

const made: string[] = [];

afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory under the system's temporary directory, named `countersign-<purpose>-…`. */
export function scratchDir(purpose: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `countersign-${purpose}-`));
  made.push(dir);
  return dir;
}
