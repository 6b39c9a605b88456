/**
 * The release as a user gets it: this checkout packed with `npm pack` (its prepack builds dist/)
 * and the tarball installed with `npm install` into an empty directory. From that install alone,
 * `countersign --version`, `policy check` on the bundle it ships, `migrate`, `serve` (a webhook
 * answered on Postgres) and `policy replay` of the decision it recorded all run.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startInstalledService } from "../../support/deploy/installed-service.js";
import { exampleEnvFor } from "../../support/example-bundle.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const run = promisify(execFile);
const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { name: string; version: string };
const TOKEN = "package-install-token";

let work: string;
let packed: { filename: string; files: { path: string }[] };
let installed: string;
let database: TestDatabase;

/** The checkout's files (tracked, and new ones not ignored) copied, so the build and pack touch nothing here. */
async function copyOfCheckout(into: string): Promise<void> {
  const { stdout } = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  // node_modules linked rather than installed is a file to git, not the ignored directory.
  for (const file of stdout.split("\0").filter((f) => f !== "" && f !== "node_modules" && existsSync(path.join(ROOT, f)))) {
    mkdirSync(path.dirname(path.join(into, file)), { recursive: true });
    cpSync(path.join(ROOT, file), path.join(into, file));
  }
  symlinkSync(path.join(ROOT, "node_modules"), path.join(into, "node_modules")); // the build's typescript
}

function countersign(args: string[], env: Record<string, string> = {}) {
  return run(path.join(installed, "node_modules/.bin/countersign"), args, {
    cwd: installed,
    env: { PATH: process.env.PATH ?? "", HOME: tmpdir(), COUNTERSIGN_DATA_DIR: path.join(work, "unused-data"), ...env },
    timeout: 60_000,
  });
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "countersign-package-"));
  const source = path.join(work, "source");
  await copyOfCheckout(source);
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", work], { cwd: source, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 });
  packed = (JSON.parse(stdout) as (typeof packed)[])[0]!;
  installed = path.join(work, "install");
  mkdirSync(installed);
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", path.join(work, packed.filename)], { cwd: installed, timeout: 300_000 });
  database = await createTestDatabase({ migrate: false });
}, 600_000); // a build and an install: about a minute on an idle 2-core machine; the limit bounds a loaded one

afterAll(async () => {
  await database?.drop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe(`the package ${manifest.name}, packed and installed`, () => {
  it("ships the compiled code, its migrations, the schemas, the example bundle, the licence and the changelog, and no sources or tests", () => {
    const files = packed.files.map((f) => f.path);
    for (const expected of ["bin/countersign.js", "dist/src/cli.js", "package.json", "README.md", "LICENSE", "CHANGELOG.md", "schema/policy.schema.json", "policies/policy.yaml"]) {
      expect(files).toContain(expected);
    }
    expect(files.some((f) => /^dist\/migrations\/.+\.js$/.test(f))).toBe(true);
    expect(files.filter((f) => /^(src|test|bench|scripts|helm|\.ci)\//.test(f) || (f.endsWith(".ts") && !f.endsWith(".d.ts")))).toEqual([]);
    expect(existsSync(path.join(installed, "node_modules", manifest.name, "src"))).toBe(false);
  });

  it("prints its version", async () => {
    expect((await countersign(["--version"])).stdout).toBe(`${manifest.version}\n`);
  });

  it("checks the bundle it ships", async () => {
    const { stdout } = await countersign(["policy", "check", path.join(installed, "node_modules", manifest.name, "policies")]);
    expect(stdout).toMatch(/^[1-9][0-9]* passed, 0 failed$/m);
  });

  it("migrates a database, serves a webhook on it, and replays the decision it recorded", async () => {
    const env = { DATABASE_URL: database.url };
    expect((await countersign(["migrate"], env)).stdout).toMatch(/^applied: /);
    const policies = path.join(installed, "node_modules", manifest.name, "policies");
    const service = await startInstalledService(
      path.join(installed, "node_modules/.bin/countersign"),
      {
        ...env,
        COUNTERSIGN_HOST: "127.0.0.1",
        COUNTERSIGN_PORT: "0",
        COUNTERSIGN_POLICIES: policies,
        ...exampleEnvFor(policies),
        COUNTERSIGN_DATA_DIR: path.join(work, "unused-data"),
        COUNTERSIGN_WEBHOOK_TOKEN: TOKEN,
      },
      { cwd: installed },
    );
    try {
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
      const answer = await fetch(`${service.url}/v1/cosigner/webhook`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
        body: readFileSync(path.join(policies, "tests/transactions/api-shape-token-transfer.json"), "utf8"),
      });
      expect(answer.status).toBe(200);
    } finally {
      expect(await service.stop()).toBe(0);
    }
    const { stdout } = await countersign(["policy", "replay", "--policies", policies, "--since", "1h", "--format", "json"], env);
    expect(JSON.parse(stdout)).toMatchObject({ replayed: 1, changed: 0 });
  });
});
