#!/usr/bin/env node
// In a checkout the TypeScript sources run through tsx; a built image (no src/) runs dist/.
import { existsSync } from "node:fs";

const source = new URL("../src/cli.ts", import.meta.url);
if (existsSync(source)) {
  const { register } = await import("tsx/esm/api");
  register();
  await import(source.href);
} else {
  await import(new URL("../dist/src/cli.js", import.meta.url).href);
}
