/**
 * The `countersign` command (CONTRACT.md section 7).
 */
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "./config.js";
import { embeddedDataPath, openDatabase } from "./db/connect.js";
import { migrateToLatest } from "./db/migrate.js";
import { explain } from "./commands/explain.js";
import { policyCheck } from "./commands/policy-check.js";
import { REVIEW_USAGE, reviewCommand } from "./commands/review.js";
import { serve } from "./main.js";
import { shutdownTelemetry } from "./telemetry/lifecycle.js";

const USAGE = `usage: countersign <command>

  serve                         start the service (applies migrations unless COUNTERSIGN_MIGRATE=false)
  migrate                       apply pending migrations and exit
  policy check [DIR]            validate the bundle and run its tests (default DIR: COUNTERSIGN_POLICIES or ./policies)
  policy replay [--policies DIR] [--since 24h | --from T --to T] [--vault V] [--format table|json|markdown] [--fail-on-change]
                                re-evaluate recorded decisions with a candidate bundle on their recorded facts (read-only)
  policy schema [policy|tests] [--write DIR]
                                print the JSON Schema of the policy file or of the test files (or write both into DIR)
  explain [FILE|-] [--now T] [--policies DIR] [--json]
                                evaluate one webhook body against the bundle and print the trace
  explain --decision ID [--json]
                                print the trace of a recorded decision (every rule, operand values)
  velocity void NAME --reason TEXT [--by OPERATOR]
                                void the velocity charges of transaction NAME (it did not move money),
                                recorded in the audit trail (velocity_voids) with who and why
  velocity prune                delete expired velocity buckets and charges now (the service also does it hourly)
  addressbook sync              fetch the configured vaults' address books once and exit
  audit verify [--schema S] [--checkpoint POSITION:HASH [--from T]]
                                recompute the audit hash chain; exit 1 on any break, 3 when it refuses to read
  audit checkpoint [--json]     print the latest sealed position and hash, for anchoring elsewhere
${REVIEW_USAGE}
`;

const out = (line: string) => process.stdout.write(line + "\n");
const fail = (line: string) => process.stderr.write(line + "\n");

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function config() {
  return loadConfig();
}

/**
 * `url` defaults to DATABASE_URL; `migrate` passes the owner's (COUNTERSIGN_MIGRATE_DATABASE_URL)
 * when set. Without a URL the embedded database is used — but only `migrate` may create one: a
 * verify, replay or void run where DATABASE_URL was forgotten would otherwise read (or write) a
 * fresh empty database and report on that. `unboundedStatements` (migrate): no statement timeout.
 */
async function withDatabase<T>(run: (db: import("./db/connect.js").Db) => Promise<T>, url?: string, create = false, unboundedStatements = false): Promise<T> {
  const c = config();
  const target = url ?? c.databaseUrl;
  if (target === undefined && !create && !existsSync(embeddedDataPath(c.dataDir))) {
    throw new Error(`DATABASE_URL is unset and there is no embedded database at ${c.dataDir}: set DATABASE_URL (or COUNTERSIGN_DATA_DIR)`);
  }
  const handle = await openDatabase({ url: target, dataDir: c.dataDir, unboundedStatements });
  try {
    return await run(handle.db);
  } finally {
    await handle.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
  switch (command) {
    case "serve":
      return serve();
    case "migrate":
      return withDatabase(async (db) => {
        const applied = await migrateToLatest(db);
        out(applied.length === 0 ? "database is up to date" : `applied: ${applied.join(", ")}`);
        return 0;
      }, config().migrateDatabaseUrl, true, true);
    case "policy":
      if (sub === "check") return policyCheck(rest[0] ?? process.env.COUNTERSIGN_POLICIES ?? "./policies", out);
      if (sub === "schema") return runPolicySchema(rest);
      if (sub === "replay") return runPolicyReplay(rest);
      break;
    case "explain":
      return runExplain([sub, ...rest].filter((a): a is string => a !== undefined));
    case "velocity":
      if (sub === "void") return (await import("./commands/velocity-void.js")).velocityVoid(rest, withDatabase, out);
      if (sub === "prune" && rest.length === 0) return (await import("./commands/velocity-prune.js")).velocityPrune(config(), withDatabase, out);
      break;
    case "audit":
      if (sub === "verify") return (await import("./commands/audit.js")).auditVerify(rest, withDatabase, out);
      if (sub === "checkpoint") return (await import("./commands/audit.js")).auditCheckpoint(rest, withDatabase, out);
      break;
    case "addressbook":
      if (sub === "sync") return (await import("./commands/addressbook-sync.js")).addressBookSync(config(), out);
      break;
    case "review":
      return reviewCommand([sub, ...rest].filter((a): a is string => a !== undefined), { out, fail, env: process.env });
    case undefined:
    case "help":
    case "--help":
    case "-h":
      out(USAGE);
      return command === undefined ? 2 : 0;
  }
  fail(`countersign: unknown command: ${argv.join(" ")}\n\n${USAGE}`);
  return 2;
}

async function runPolicySchema(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { write: { type: "string" } } });
  return (await import("./commands/policy-schema.js")).policySchema(positionals[0], values.write, out);
}

async function runPolicyReplay(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      policies: { type: "string" }, since: { type: "string" }, from: { type: "string" }, to: { type: "string" },
      vault: { type: "string" }, format: { type: "string" }, "fail-on-change": { type: "boolean", default: false },
    },
  });
  const { policyReplay } = await import("./commands/policy-replay.js");
  const policies = values.policies ?? process.env.COUNTERSIGN_POLICIES ?? "./policies";
  return policyReplay({ ...values, policies, failOnChange: values["fail-on-change"] ?? false, now: new Date() }, withDatabase, out);
}

async function runExplain(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { now: { type: "string" }, policies: { type: "string" }, json: { type: "boolean", default: false }, decision: { type: "string" } },
  });
  const policies = values.policies ?? process.env.COUNTERSIGN_POLICIES ?? "./policies";
  if (values.decision !== undefined) {
    const { explainDecision } = await import("./commands/explain-decision.js");
    const id = values.decision;
    return withDatabase((db) => explainDecision(db, id, { json: values.json ?? false }, out));
  }
  const now = values.now ? new Date(values.now) : new Date();
  if (Number.isNaN(now.getTime())) {
    fail("countersign: --now must be an RFC 3339 time");
    return 2;
  }
  return explain(
    {
      file: positionals[0] ?? "-",
      policies,
      now,
      json: values.json ?? false,
      readStdin,
    },
    out,
  );
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    fail(error instanceof ConfigError ? `countersign: ${error.message}` : `countersign: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
)
  // With OpenTelemetry on, the last spans and metrics go out (for `serve`, after draining).
  .finally(() => shutdownTelemetry());
