/**
 * bin/countersign.js chooses what to run: dist/ when it is built and current, the sources through
 * tsx in a checkout whose build is missing, older, or holds other migrations, dist/ always when there is no src/ (the image,
 * a production install); and it loads the OpenTelemetry instrumentation first only when an OTEL_*
 * variable asks for it. Checked on a stand-in tree whose entry points say which one ran.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const run = promisify(execFile);
let tree: string | undefined;

afterEach(() => {
  if (tree) rmSync(tree, { recursive: true, force: true });
  tree = undefined;
});

/** A checkout-shaped tree; `at` sets the files' modification times (seconds since the epoch). */
function standIn(parts: { dist?: number; src?: number; instrument?: boolean; builtMigrations?: string[] }): string {
  tree = mkdtempSync(path.join(tmpdir(), "countersign-bin-"));
  cpSync(path.join(ROOT, "bin"), path.join(tree, "bin"), { recursive: true });
  cpSync(path.join(ROOT, "package.json"), path.join(tree, "package.json"));
  symlinkSync(path.join(ROOT, "node_modules"), path.join(tree, "node_modules"));
  const write = (file: string, text: string, at: number) => {
    mkdirSync(path.dirname(path.join(tree!, file)), { recursive: true });
    writeFileSync(path.join(tree!, file), text);
    utimesSync(path.join(tree!, file), at, at);
  };
  if (parts.dist !== undefined) {
    write("dist/src/cli.js", 'console.log("ran dist");\n', parts.dist);
    if (parts.instrument) write("dist/src/telemetry/instrument.js", 'console.log("instrumented");\n', parts.dist);
    for (const name of parts.builtMigrations ?? ["20260101T0000_first"]) {
      write(`dist/migrations/${name}.js`, "export {};\n", parts.dist);
      write(`dist/migrations/${name}.js.map`, "{}\n", parts.dist);
    }
  }
  if (parts.src !== undefined) {
    write("src/cli.ts", 'const from: string = "sources";\nconsole.log(`ran ${from}`);\n', parts.src);
    write("migrations/20260101T0000_first.ts", "export {};\n", parts.src);
  }
  return tree;
}

async function runBin(dir: string, env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await run(process.execPath, [path.join(dir, "bin/countersign.js")], {
    env: { PATH: process.env.PATH ?? "", HOME: tmpdir(), ...env },
    timeout: 30_000,
  });
  return stdout.trim();
}

const EARLIER = 1_700_000_000;
const LATER = EARLIER + 3600;

describe("bin/countersign.js", () => {
  it("runs dist/ when it is at least as new as every source file", async () => {
    expect(await runBin(standIn({ src: EARLIER, dist: LATER }))).toBe("ran dist");
  });

  it("runs the sources through tsx when a source file is newer than the build", async () => {
    expect(await runBin(standIn({ src: LATER, dist: EARLIER }))).toBe("ran sources");
  });

  it("runs the sources through tsx when the build holds a migration the sources no longer have", async () => {
    // A build left from a later checkout: its migration would otherwise be applied.
    const dir = standIn({ src: EARLIER, dist: LATER, builtMigrations: ["20260101T0000_first", "20260102T0000_removed"] });
    expect(await runBin(dir)).toBe("ran sources");
  });

  it("runs the sources through tsx when the build lacks a migration the sources have", async () => {
    expect(await runBin(standIn({ src: EARLIER, dist: LATER, builtMigrations: [] }))).toBe("ran sources");
  });

  it("runs the sources through tsx in a checkout with no build", async () => {
    expect(await runBin(standIn({ src: EARLIER }))).toBe("ran sources");
  });

  it("runs dist/ when there are no sources (the image, a production install)", async () => {
    expect(await runBin(standIn({ dist: EARLIER }))).toBe("ran dist");
  });

  it("loads the OpenTelemetry instrumentation before the CLI only when an OTEL_* variable is set and the SDK is not disabled", async () => {
    const dir = standIn({ dist: EARLIER, instrument: true });
    expect(await runBin(dir)).toBe("ran dist");
    expect(await runBin(dir, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBe("instrumented\nran dist");
    expect(await runBin(dir, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_SDK_DISABLED: "true" })).toBe("ran dist");
  });
});
