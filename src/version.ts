/**
 * The version of this countersign, from its package.json: the one a release is published under,
 * read at run time so `countersign --version` in a checkout, the image and an npm install all say
 * what package.json says. The nearest package.json is two levels up from dist/src/, one from src/.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export function packageVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 3; depth++, dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
  }
  throw new Error("countersign's package.json is not beside its code");
}
