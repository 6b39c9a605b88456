/**
 * Replay throughput: `policy replay` over REPLAY_ROWS (100,000) recorded decisions seeded with
 * generate_series from a real facts document of the example policy (amounts varied per row), with
 * a candidate that lowers a limit; beside it, in the same run, the plain evaluation rate of the
 * same candidate on the same facts already in memory (no database): the ceiling replay approaches.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { notConfiguredView } from "../src/core/addressbook/types.js";
import type { Db } from "../src/database.js";
import { factsFor, situationOf } from "../src/core/assess.js";
import type { Facts } from "../src/core/facts/types.js";
import { evaluate } from "../src/core/policy/evaluate.js";
import { loadBundle } from "../src/policy/load.js";
import type { PolicyBundle } from "../src/core/policy/types.js";
import { replay } from "../src/replay/replay.js";
import { parseTransaction } from "../src/core/transaction/parse.js";
import { examplePricesFor } from "../test/support/example-bundle.js";

export interface ReplayFigures {
  rows: number;
  seedSeconds: number;
  replayPerSecond: number;
  changed: number;
  evaluatePerSecond: number;
}

async function bundle(dir: string): Promise<PolicyBundle> {
  const loaded = await loadBundle(dir);
  if (!loaded.ok) throw loaded.error;
  return loaded.value;
}

/** The example policy with its ETH review threshold lowered from 5 to 2.5. */
function candidateDir(policies: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "countersign-bench-candidate-"));
  cpSync(policies, dir, { recursive: true });
  const file = path.join(dir, "policy.yaml");
  const text = readFileSync(file, "utf8");
  const lowered = text.replace('{">": [{"var": "transfer.assetTotal"}, "5"]}', '{">": [{"var": "transfer.assetTotal"}, "2.5"]}');
  if (lowered === text) throw new Error("bench: the example policy's ETH review threshold was not found");
  writeFileSync(file, lowered.replace(/^version: .*$/m, 'version: "bench-candidate"'));
  return dir;
}

function sampleFacts(live: PolicyBundle, now: Date): Facts[] {
  const parsed = parseTransaction({
    name: "vaults/bench/transactions/sample",
    details: { assetTransfer: { asset: "assets/native.ethereum-mainnet", amount: "1", source: "vaults/bench/wallets/hot", destination: "vaults/bench/wallets/cold" } },
  });
  if (!parsed.ok) throw new Error("bench: sample transaction refused");
  // Priced as the example's dollar window needs, as a decision under `npm start` would record it.
  return factsFor(live, situationOf(parsed.value, now, notConfiguredView(parsed.value.vault), examplePricesFor(live)), new Map());
}

async function seed(db: Db, live: PolicyBundle, rows: number, start: Date, template: Facts[]): Promise<void> {
  await sql`select decisions_create_month(date_trunc('month', ${start}::timestamptz)::date)`.execute(db).catch(() => undefined);
  await sql`select decisions_create_month(date_trunc('month', now())::date)`.execute(db).catch(() => undefined);
  for (let first = 1; first <= rows; first += 20_000) {
    const last = Math.min(rows, first + 19_999);
    // Amounts 0.01 … 5.00 ETH between two wallets of the vault: all allowed by the live policy
    // (ETH over 5 waits for review); the candidate defers those over 2.5.
    await sql`
      insert into decisions (id, decided_at, transaction_name, vault, decision, sign_transaction, http_status, replayed,
        policy_version, policy_digest, matched_rules, reasons, facts, transaction, content_digest, request_id, duration_ms, velocity_windows)
      select gen_random_uuid(), ${start}::timestamptz + make_interval(secs => i * 0.5),
        'vaults/bench/transactions/r' || i, 'vaults/bench', 'allow', true, 200, false,
        ${live.version}, ${live.digest}, '[{"rule":"trusted-destination","decision":"allow","transfer":0}]', '[]',
        jsonb_set(jsonb_set(${JSON.stringify(template)}::jsonb, '{0,transfer,amount}', to_jsonb(trim_scale(((i % 500) + 1)::numeric / 100)::text)),
          '{0,transfer,assetTotal}', to_jsonb(trim_scale(((i % 500) + 1)::numeric / 100)::text)),
        '{}', md5(i::text), 'bench', 1, ${JSON.stringify(live.windows)}::jsonb
      from generate_series(${first}::int, ${last}::int) as i`.execute(db);
  }
  await sql`analyze decisions`.execute(db);
}

export async function benchReplay(db: Db, policies: string, rows: number): Promise<ReplayFigures> {
  const live = await bundle(policies);
  const candidate = await bundle(candidateDir(policies));
  const start = new Date(Date.now() - rows * 500 - 3600_000);
  const template = sampleFacts(live, start);

  const t0 = performance.now();
  await seed(db, live, rows, start, template);
  const seedSeconds = (performance.now() - t0) / 1000;

  const t1 = performance.now();
  const report = await replay(db, candidate, { from: start, to: new Date() });
  const replaySeconds = (performance.now() - t1) / 1000;
  if (report.replayed !== rows) throw new Error(`bench: replayed ${report.replayed} of ${rows} rows`);

  // Baseline: the same evaluation on the same facts, already in memory.
  const docs = Array.from({ length: rows }, (_, i) => {
    const facts = structuredClone(template);
    facts[0]!.transfer!.amount = String((((i + 1) % 500) + 1) / 100); // as seeded: row i + 1
    return facts;
  });
  const t2 = performance.now();
  let changed = 0;
  for (const facts of docs) if (evaluate(candidate, facts).decision !== "allow") changed++;
  if (evaluate(live, template).decision !== "allow") throw new Error("bench: the seeded decision is not what the live policy decides");
  const evaluateSeconds = (performance.now() - t2) / 1000;
  if (changed !== report.changed) throw new Error(`bench: replay found ${report.changed} changes, plain evaluation ${changed}`);

  return { rows, seedSeconds, replayPerSecond: rows / replaySeconds, changed: report.changed, evaluatePerSecond: rows / evaluateSeconds };
}
