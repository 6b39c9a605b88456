/**
 * The project's shared folder (CONTRACT.md, the custody API's OpenAPI document, example bodies):
 * CI clones the repository with `shared/` beside it; a worktree may sit one level deeper. The
 * nearest ancestor's `shared/` is used, or COUNTERSIGN_SHARED_DIR when set. Missing is an error,
 * never a skipped test.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");
const OPENAPI = "reference/custody-api-v2.openapi.json";

function findSharedDir(): string {
  const fromEnv = process.env.COUNTERSIGN_SHARED_DIR;
  if (fromEnv) return path.resolve(fromEnv);
  for (let dir = path.dirname(REPO_ROOT); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "shared");
    if (existsSync(path.join(candidate, OPENAPI))) return candidate;
    if (path.dirname(dir) === dir) break;
  }
  throw new Error(`shared/${OPENAPI} not found beside ${REPO_ROOT} or above it; set COUNTERSIGN_SHARED_DIR`);
}

export const SHARED_DIR = findSharedDir();

export function readOpenApi(): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(SHARED_DIR, OPENAPI), "utf8")) as Record<string, unknown>;
}

/** Every `*.json` body in a folder, by file name. */
export function readBodies(dir: string): { file: string; body: Record<string, unknown> }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => ({ file, body: JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Record<string, unknown> }));
}

/** The valid example bodies the mutations start from: the policy tests' and shared/examples'. */
export function exampleBodies(): { file: string; body: Record<string, unknown> }[] {
  return [
    ...readBodies(path.join(REPO_ROOT, "policies/tests/transactions")),
    ...readBodies(path.join(SHARED_DIR, "examples/transactions")),
  ];
}
