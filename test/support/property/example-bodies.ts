/**
 * The valid bodies the mutations and the oracle start from: the example policy's test bodies and
 * the platform's example bodies vendored under src/core/transaction/__fixtures__.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");
const FOLDERS = ["policies/tests/transactions", "src/core/transaction/__fixtures__"];

/** Every `*.json` body in a folder, by file name. */
function readBodies(dir: string): { file: string; body: Record<string, unknown> }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => ({ file, body: JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Record<string, unknown> }));
}

export function exampleBodies(): { file: string; body: Record<string, unknown> }[] {
  return FOLDERS.flatMap((folder) => readBodies(path.join(REPO_ROOT, folder)));
}
