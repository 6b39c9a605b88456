/**
 * The SQL ceiling's and the durable floor's scripts, from the service's own statements: one fresh
 * allowed decision with the example policy runs in this process through `decide()` while
 * bench/capture.ts records what pg sends; bench/replay-script.ts templates it. The floor is the
 * decision row that capture wrote, inserted alone (autocommitted) with every stored value.
 */
import pg from "pg";
import { openDatabase } from "../src/database.js";
import { decide } from "../src/decision/decide.js";
import { parseTransaction } from "../src/core/transaction/parse.js";
import { connectClient } from "./durable-server.js";
import { installStatementRecorder, type CapturedStatement } from "./capture.js";
import { benchDecisionDeps, benchTransaction } from "./decision-latency.js";
import { buildReplayScript, type ReplayScript } from "./replay-script.js";

export interface DecisionSql {
  /** One decision's statements, templated. */
  ceiling: ReplayScript;
  /** The decision row alone, templated. */
  floor: ReplayScript;
}

const CAPTURE_WALLET = 7391;
const OTHER_WALLET = 4242;

export async function captureDecisionSql(databaseUrl: string, policies: string, wallets: number): Promise<DecisionSql> {
  const recorder = installStatementRecorder();
  const handle = await openDatabase({ url: databaseUrl, maxConnections: 2 });
  try {
    const deps = benchDecisionDeps(handle.db, policies);
    const once = async (walletIndex: number) => {
      const body = benchTransaction(walletIndex, 10_000);
      const parsed = parseTransaction(body);
      if (!parsed.ok) throw parsed.error;
      let decisionId = "";
      const statements = await recorder.capture(async () => {
        const result = await decide(deps, parsed.value, "bench");
        if (result.kind !== "decided" || result.decision !== "allow") throw new Error(`the captured decision was not a fresh allow: ${JSON.stringify(result)}`);
        decisionId = result.decisionId;
      });
      return { statements, decisionId, nameToken: body.name.split("/").pop()!, walletToken: body.details.assetTransfer.source.split("/").pop()! };
    };
    await once(1); // warm-up: anything done once per process is not part of a decision
    const a = await once(CAPTURE_WALLET);
    const b = await once(CAPTURE_WALLET);
    const c = await once(OTHER_WALLET);
    // Compared without their literals: a simple-protocol text embeds the values that vary.
    const shape = (s: CapturedStatement[]) => s.map((x) => x.text.replace(/'(?:[^']|'')*'/g, "''")).join("\n");
    if (shape(a.statements) !== shape(b.statements) || shape(a.statements) !== shape(c.statements)) {
      throw new Error("three fresh decisions issued different statements: the capture cannot template them");
    }
    const haystack = (s: CapturedStatement[]) => s.map((x) => `${x.text}\n${x.values.map(String).join("\n")}`).join("\n");
    const client = await connectClient(databaseUrl);
    try {
      const common = { nameToken: a.nameToken, walletToken: a.walletToken, sameWallet: haystack(b.statements), otherWallet: haystack(c.statements), wallets };
      const ceiling = buildReplayScript({ ...common, statements: a.statements, parameterTypes: await parameterTypes(client, a.statements) });
      const row = await decisionRowInsert(client, a.decisionId);
      const floor = buildReplayScript({ ...common, statements: [row], parameterTypes: await parameterTypes(client, [row]) });
      return { ceiling, floor };
    } finally {
      await client.end();
    }
  } finally {
    await handle.close();
    recorder.uninstall();
  }
}

/** The types the server infers for each statement's parameters (PREPARE, read back, deallocate). */
async function parameterTypes(client: pg.Client, statements: CapturedStatement[]): Promise<string[][]> {
  const types: string[][] = [];
  for (const s of statements) {
    if (s.values.length === 0) {
      types.push([]);
      continue;
    }
    await client.query(`prepare cs_bench_probe as ${s.text}`);
    const r = await client.query<{ types: string[] }>("select parameter_types::text[] as types from pg_prepared_statements where name = 'cs_bench_probe'");
    await client.query("deallocate cs_bench_probe");
    types.push(r.rows[0]!.types);
  }
  return types;
}

/**
 * `insert into decisions` with the stored row's every non-null column, but those the server fills
 * itself (identity, generated, or a default that calls a function: the sequence, the writing
 * transaction's id), which it then fills for the floor too.
 */
async function decisionRowInsert(client: pg.Client, decisionId: string): Promise<CapturedStatement> {
  const columns = await client.query<{ name: string; type: string }>(`
    select a.attname as name, format_type(a.atttypid, a.atttypmod) as type
    from pg_attribute a join pg_class c on c.oid = a.attrelid
    where c.oid = 'decisions'::regclass and a.attnum > 0 and not a.attisdropped
      and a.attidentity = '' and a.attgenerated = ''
      and not coalesce(pg_get_expr((select d.adbin from pg_attrdef d where d.adrelid = a.attrelid and d.adnum = a.attnum), a.attrelid) like '%(%', false)
    order by a.attnum`);
  const row = await client.query<Record<string, string | null>>(
    `select ${columns.rows.map((c) => `${quoteIdent(c.name)}::text as ${quoteIdent(c.name)}`).join(", ")} from decisions where id = $1`,
    [decisionId],
  );
  const stored = row.rows[0];
  if (!stored) throw new Error(`the captured decision ${decisionId} has no row`);
  const present = columns.rows.filter((c) => stored[c.name] !== null);
  return {
    text: `insert into decisions (${present.map((c) => quoteIdent(c.name)).join(", ")}) values (${present.map((c, i) => `$${i + 1}::${c.type}`).join(", ")})`,
    values: present.map((c) => stored[c.name]!),
    extended: true,
    roundTrip: 0,
  };
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
