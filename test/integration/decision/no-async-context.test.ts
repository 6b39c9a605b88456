import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(import.meta.dirname, "../../../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

// On Node 20 one AsyncLocalStorage (or async hook) anywhere turns on async_hooks' promise hook for
// every promise in the process: about a tenth of the service's CPU per decision, measured under
// `npm run bench`. The decision's guard and a request's id are passed instead
// (src/db/checkout-guard.ts, src/http/request-context.ts). OpenTelemetry's SDK brings its own
// context manager, and that cost, only when telemetry is turned on.
describe("the service's own code keeps async_hooks off", () => {
  it("imports node:async_hooks nowhere under src/", () => {
    const importers = sourceFiles(SRC).filter((file) => /from\s+["'](node:)?async_hooks["']|require\(\s*["'](node:)?async_hooks["']\s*\)/.test(readFileSync(file, "utf8")));
    expect(importers.map((file) => path.relative(SRC, file))).toEqual([]);
  });
});
