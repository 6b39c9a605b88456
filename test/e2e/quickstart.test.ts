/**
 * The first hour (docs/first-hour.md): `countersign serve` started as `npm start` starts it (no
 * configuration but a fresh embedded database and a free port), each body of the document's table
 * posted to the webhook, each answered as the table says. Then, with the service still holding
 * the embedded database, `explain --decision`, `audit verify` and `policy replay` read through it,
 * answering as they do once the service has stopped.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { scratchDir } from "../support/scratch.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin/countersign.js");
const ADMIN_TOKEN = "quickstart-admin-token-0123456789";

interface Row {
  body: string;
  status: number;
  signTransaction: boolean | undefined;
}

/** The table's rows: | `body.json` | `200 signTransaction: true` | why | */
function tableRows(): Row[] {
  const doc = readFileSync(path.join(ROOT, "docs/first-hour.md"), "utf8");
  return [...doc.matchAll(/^\| `([^`]+\.json)` \| `(\d{3})(?: signTransaction: (true|false))?` \|/gm)].map((m) => ({
    body: m[1]!,
    status: Number(m[2]),
    signTransaction: m[3] === undefined ? undefined : m[3] === "true",
  }));
}

/** The environment of a shell with nothing of countersign's set, as a newcomer's is. */
function newcomerEnv(dataDir: string): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("OTEL_") && !k.startsWith("COUNTERSIGN_") && k !== "DATABASE_URL"));
  return { ...inherited, COUNTERSIGN_DATA_DIR: dataDir };
}

/** The words of package.json's `start` script: `node`, then its arguments. */
function npmStartCommand(): string[] {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } };
  return manifest.scripts.start.split(" ");
}

describe("the first hour: npm start and the documented bodies", () => {
  const dataDir = path.join(scratchDir("quickstart"), "data");
  const rows = tableRows();
  let child: ChildProcess;
  let url: string;
  let output = "";

  beforeAll(async () => {
    // `npm start`'s own command (its env file of example prices included), with a free port, and
    // the admin token the read-through below needs.
    const [node, ...args] = npmStartCommand();
    expect(node).toBe("node");
    child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...newcomerEnv(dataDir), COUNTERSIGN_PORT: "0", COUNTERSIGN_ADMIN_TOKEN: ADMIN_TOKEN },
      stdio: ["ignore", "pipe", "pipe"],
    });
    url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const serving = output.split("\n").find((line) => line.includes('"countersign serving"'));
        if (serving) resolve((JSON.parse(serving) as { url: string }).url);
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      child.once("exit", (code) => reject(new Error(`countersign exited with ${code}:\n${output}`)));
    });
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
  });

  const post = (body: string) =>
    fetch(`${url}/v1/cosigner/webhook`, { method: "POST", headers: { "content-type": "application/json" }, body: readFileSync(path.join(ROOT, body)) });

  it("the table lists the bodies, two of them signed", () => {
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(rows.filter((r) => r.signTransaction === true).length).toBeGreaterThanOrEqual(2);
  });

  it("each body gets the answer the table gives", async () => {
    const answers = [];
    for (const row of rows) {
      const response = await post(row.body);
      const body = (await response.json()) as { signTransaction?: boolean };
      answers.push({ body: row.body, status: response.status, signTransaction: body.signTransaction });
    }
    expect(answers).toEqual(rows);
  });

  /** A second countersign process on the same data directory; its exit code, stdout and stderr. */
  const cli = (args: string[], env: NodeJS.ProcessEnv) =>
    promisify(execFile)(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...newcomerEnv(dataDir), ...env } }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  it("explain --decision reads a decision through the service that holds the embedded database", async () => {
    const signed = rows.find((r) => r.signTransaction === true)!;
    const { decisionId } = (await (await post(signed.body)).json()) as { decisionId: string };
    const run = (env: NodeJS.ProcessEnv) => cli(["explain", "--decision", decisionId], env);
    const read = await run({ COUNTERSIGN_ADMIN_TOKEN: ADMIN_TOKEN, COUNTERSIGN_URL: url });
    expect(read.stderr).toBe("");
    expect(read.code).toBe(0);
    expect(read.stdout).toContain(`decision ${decisionId}:`);
    expect(read.stdout).toContain("decision: allow");
    const refused = await run({ COUNTERSIGN_URL: url });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("COUNTERSIGN_ADMIN_TOKEN");
  }, 60_000);

  // Last: it stops the service to run the same verify on the database itself.
  it("audit verify and policy replay run through the service, with the answers they give once the service has stopped", async () => {
    const unauthorized = await fetch(`${url}/v1/audit/verify`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(unauthorized.status).toBe(401);
    const withoutToken = await cli(["audit", "verify"], { COUNTERSIGN_URL: url });
    expect(withoutToken.code).toBe(1);
    expect(withoutToken.stderr).toContain("COUNTERSIGN_ADMIN_TOKEN");

    // The sealer links rows every second: wait until none is pending, so both runs see one chain.
    const through = await vi.waitFor(
      async () => {
        const run = await cli(["audit", "verify"], { COUNTERSIGN_ADMIN_TOKEN: ADMIN_TOKEN, COUNTERSIGN_URL: url });
        expect(run).toMatchObject({ code: 0, stderr: "" });
        expect(run.stdout).not.toContain("not sealed yet");
        return run;
      },
      { timeout: 30_000, interval: 500 },
    );
    expect(through.stdout).toMatch(/^audit trail intact: positions 1\.\.\d+, last hash [0-9a-f]{64}\nschema verified: public\n$/);

    const replayArgs = ["policy", "replay", "--policies", "policies", "--from", "2026-01-01T00:00:00Z", "--to", "2100-01-01T00:00:00Z", "--format", "json"];
    const replayed = await cli(replayArgs, { COUNTERSIGN_ADMIN_TOKEN: ADMIN_TOKEN, COUNTERSIGN_URL: url });
    expect(replayed).toMatchObject({ code: 0, stderr: "" });
    const report = JSON.parse(replayed.stdout) as { candidate: { directory: string }; replayed: number; changed: number };
    expect(report).toMatchObject({ candidate: { directory: "policies" }, changed: 0 });
    expect(report.replayed).toBeGreaterThan(0);

    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    expect(await cli(["audit", "verify"], {})).toEqual(through);
    expect(await cli(replayArgs, {})).toEqual(replayed);
  }, 90_000);
});
