#!/usr/bin/env node
// Runs the compiled JavaScript in dist/ (`npm run build`). The image and a production install ship
// dist/ without src/ and without dev dependencies: nothing is compiled at run time there.
// In a checkout (src/ present) dist/ runs only while it is at least as new as every source file
// and holds the same migrations; otherwise the sources run through tsx (a devDependency), so an edit is never hidden behind an
// old build.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const built = path.join(root, "dist/src/cli.js");
const sources = path.join(root, "src/cli.ts");

function newestModification(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const time = entry.isDirectory() ? newestModification(full) : statSync(full).mtimeMs;
    if (time > newest) newest = time;
  }
  return newest;
}

/** The migrations in `dir` written in `extension`, by name, in order. */
function migrationNames(dir, extension) {
  if (!existsSync(dir)) return "";
  return readdirSync(dir)
    .filter((f) => f.endsWith(extension) && !f.endsWith(".d.ts"))
    .map((f) => f.slice(0, -extension.length))
    .sort()
    .join("\n");
}

function buildIsCurrent() {
  if (!existsSync(built)) return false;
  if (!existsSync(sources)) return true;
  const builtAt = statSync(built).mtimeMs;
  if (!["src", "migrations"].every((d) => newestModification(path.join(root, d)) <= builtAt)) return false;
  // A source deleted since the build leaves its compiled file behind, and the migrator loads every
  // file in dist/migrations: a migration taken out of the sources would still be applied.
  return migrationNames(path.join(root, "migrations"), ".ts") === migrationNames(path.join(root, "dist/migrations"), ".js");
}

async function runSourcesThroughTsx() {
  let register;
  try {
    ({ register } = await import("tsx/esm/api"));
  } catch {
    process.stderr.write("countersign: dist/ is missing or older than src/; run `npm run build` (or `npm ci` to get tsx)\n");
    process.exit(1);
  }
  register();
  return path.join(root, "src");
}

const tree = buildIsCurrent() ? path.join(root, "dist/src") : await runSourcesThroughTsx();
const extension = tree.endsWith("dist/src") ? "js" : "ts";

// OpenTelemetry: the SDK must be registered before the service's modules load (what
// `node --import` does). Only when some OTEL_* variable is set and the SDK is not disabled, so the
// default start loads nothing extra.
const instrument = path.join(tree, `telemetry/instrument.${extension}`);
const otelWanted = Object.keys(process.env).some((k) => k.startsWith("OTEL_")) && process.env.OTEL_SDK_DISABLED !== "true";
if (otelWanted && existsSync(instrument)) await import(pathToFileURL(instrument).href);

await import(pathToFileURL(path.join(tree, `cli.${extension}`)).href);
