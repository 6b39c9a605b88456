#!/usr/bin/env node
/**
 * Moves the tests into their layout and rewrites every path that names them, so the move can be
 * redone on a tree that gained or lost test files (run from the repository root, on a clean tree;
 * idempotent: a file already in place is left):
 * - test/<area>/*.test.ts (and the top-level suites) → test/integration/<area>/, real Postgres or HTTP of one area;
 * - test/e2e/ stays: full-service flows through the co-signer simulator;
 * - an area's helpers → test/support/ (test/<area>/support.ts → test/support/<area>.ts, any other
 *   → test/support/<area>/), so there is one support tree; test/fixtures/ stays.
 * Relative specifiers (imports, `new URL(…, import.meta.url)`, `import.meta.dirname` paths) are
 * rewritten in every TypeScript file; `test/…` paths named in documentation, scripts and comments
 * are rewritten to the new ones. The released baseline migration is never edited.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const AREAS = [
  "addressbook",
  "architecture",
  "assets",
  "audit",
  "bench",
  "ci",
  "cli",
  "config",
  "db",
  "decision",
  "deploy",
  "events",
  "faults",
  "policy",
  "property",
  "replay",
  "review",
  "velocity",
  "webhook",
];
const TOP_LEVEL = { "docs-links.test.ts": "docs", "docs-sql.test.ts": "docs", "self-contained.test.ts": "repo", "policy-bundle.test.ts": "policy" };
const NEVER_EDITED = new Set(["migrations/20261129T0000_baseline.ts"]);

const git = (...args) => execFileSync("git", args, { encoding: "utf8" });
const tracked = git("ls-files").split("\n").filter(Boolean);

/** Where a test file belongs, or null when it is in place. */
function destination(file) {
  const parts = file.split("/");
  if (parts[0] !== "test") return null;
  if (parts.length === 2 && TOP_LEVEL[parts[1]]) return `test/integration/${TOP_LEVEL[parts[1]]}/${parts[1]}`;
  const [, area, ...rest] = parts;
  if (!AREAS.includes(area) || rest.length === 0) return null;
  if (file.endsWith(".test.ts")) return `test/integration/${area}/${rest.join("/")}`;
  if (rest.length === 1 && rest[0] === "support.ts") return `test/support/${area}.ts`;
  return `test/support/${area}/${(rest[0] === "support" ? rest.slice(1) : rest).join("/")}`;
}

const moves = new Map(tracked.map((f) => [f, destination(f)]).filter(([, to]) => to !== null));
const movedTo = (file) => moves.get(file) ?? file;

/** A relative specifier of `file` (at its old place) as seen from its new place, or null when it names nothing here. */
function respecified(file, spec) {
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
  const asTs = target.replace(/\.js$/, ".ts");
  // A path the tests create (an artifacts folder) names nothing yet: kept when its folder is in the repository.
  const creates = !target.startsWith("..") && existsSync(path.posix.dirname(target)) ? target : undefined;
  const found = [target, asTs].find((t) => t === "." || existsSync(t)) ?? creates;
  if (found === undefined) return null;
  const moved = movedTo(found === "." ? "" : found);
  const newTarget = found === asTs && asTs !== target ? moved.replace(/\.ts$/, ".js") : moved;
  let relative = path.posix.relative(path.posix.dirname(movedTo(file)), newTarget || ".") || ".";
  if (!relative.startsWith(".")) relative = `./${relative}`;
  return spec.endsWith("/") && !relative.endsWith("/") ? `${relative}/` : relative;
}

/** Specifiers resolved against the file's own folder: imports, URLs of import.meta.url, paths from import.meta.dirname. */
const RELATIVE = [
  /(\bfrom\s+|\bimport\(\s*|\brequire\(\s*|\bvi\.mock\(\s*)(["'])(\.{1,2}(?:\/[^"'`$]*)?)(?=["'])/g,
  /(\bnew URL\(\s*)(["'`])(\.{1,2}(?:\/[^"'`$]*)?)(?=["'`$][^)]*import\.meta\.url)/g,
  /(\bimport\.meta\.dirname,\s*)(["'`])(\.{1,2}(?:\/[^"'`$]*)?)(?=["'`$])/g,
];

function rewriteSpecifiers(file, text) {
  return RELATIVE.reduce(
    (out, pattern) =>
      out.replace(pattern, (whole, lead, quote, spec) => {
        const next = respecified(file, spec);
        return next === null ? whole : `${lead}${quote}${next}`;
      }),
    text,
  );
}

/** `test/…` paths as text (docs, scripts, comments): each moved file, and each area folder outside TypeScript. */
function rewriteNamedPaths(file, text) {
  const pairs = [...moves].sort(([a], [b]) => b.length - a.length);
  let out = text;
  for (const [from, to] of pairs) out = out.replace(new RegExp(`(?<![\\w./-])${from.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-])`, "g"), to);
  if (!file.endsWith(".ts")) {
    for (const area of AREAS) {
      const folder = area === "property" ? "test/property/support/" : null;
      if (folder) out = out.replace(new RegExp(`(?<![\\w./-])${folder}`, "g"), "test/support/property/");
      out = out.replace(new RegExp(`(?<![\\w./-])test/${area}/`, "g"), `test/integration/${area}/`);
    }
  }
  return out;
}

const TEXT = /\.(ts|mts|mjs|js|md|json|yaml|yml|sql|sh)$|^\.ci\/run$|Dockerfile$/;
for (const file of tracked) {
  if (!TEXT.test(file) || NEVER_EDITED.has(file) || file.startsWith("test/fixtures/") || !existsSync(file) || !statSync(file).isFile()) continue;
  if (file === "package-lock.json" || file === "scripts/test-layout.mjs") continue;
  const text = readFileSync(file, "utf8");
  let next = /\.(ts|mts|mjs)$/.test(file) ? rewriteSpecifiers(file, text) : text;
  next = rewriteNamedPaths(file, next);
  if (next !== text) writeFileSync(file, next);
}

for (const [from, to] of moves) {
  execFileSync("mkdir", ["-p", path.posix.dirname(to)]);
  git("mv", from, to);
}
console.log(`moved ${moves.size} files`);
