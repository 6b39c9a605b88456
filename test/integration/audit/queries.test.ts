/**
 * Must-show 3: each query in docs/audit-queries.sql runs, with the psql variables its header sets,
 * against a trail written by the real decision path (test/support/audit/trail.ts) and returns the
 * expected rows. Run as the auditor role would see it: through the views and audit tables.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { latestCheckpoint } from "../../../src/audit/checkpoint.js";
import { sealPending } from "../../../src/audit/sealer.js";
import type { Db } from "../../../src/database.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { voidCharges } from "../../../src/velocity/ledger.js";
import { COLD, HOT, OTC_DESK, STRANGER, V1, V2, VAULT, name, seedTrail } from "../../support/audit/trail.js";

const FILE = path.resolve(import.meta.dirname, "../../../docs/audit-queries.sql");

/** The file's queries by number, with `:'var'` and `:var` replaced as psql would. */
function loadQueries(): Map<number, string> {
  const text = readFileSync(FILE, "utf8");
  const vars = new Map([...text.matchAll(/^\\set (\w+) (.*)$/gm)].map((m) => [m[1]!, m[2]!]));
  const queries = new Map<number, string>();
  for (const block of text.split(/^(?=-- Q\d+\.)/m).slice(1)) {
    const n = Number(/^-- Q(\d+)\./.exec(block)![1]);
    const query = block.replace(/:'(\w+)'/g, (_, v: string) => vars.get(v) ?? `:'${v}'`).replace(/(?<!:):(\w+)\b/g, (m, v: string) => vars.get(v) ?? m);
    expect(query, `Q${n} uses a variable the header does not set`).not.toMatch(/:'\w+'/);
    queries.set(n, query);
  }
  return queries;
}

const ETH = "assets/native.ethereum-mainnet";
const USDC = "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
const at = (iso: string) => new Date(iso);
const BOOK_REASON = "Destination is an approved address-book entry or a wallet of this vault";
const WALLET_GROUP = JSON.stringify([["sourceWallet", ["wallet", HOT]]]);
const walletAssetGroup = (asset: string) =>
  JSON.stringify([
    ["sourceWallet", ["wallet", HOT]],
    ["asset", asset],
  ]);

describe("docs/audit-queries.sql against a seeded trail", () => {
  let tdb: TestDatabase;
  let db: Db;
  const queries = loadQueries();
  const run = async (n: number) => (await sql.raw<Record<string, unknown>>(queries.get(n)!).execute(db)).rows;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    db = tdb.handle.db;
    await seedTrail(db);
    await sealPending(db);
  });
  afterAll(async () => tdb?.drop());

  it("has at least ten queries, numbered in order", () => {
    expect([...queries.keys()]).toEqual(Array.from({ length: queries.size }, (_, i) => i + 1));
    expect(queries.size).toBeGreaterThanOrEqual(10);
  });

  it("Q1 lists every decision for a transaction", async () => {
    expect(await run(1)).toEqual([
      {
        decided_at: at("2026-11-10T09:00:00Z"),
        decision: "allow",
        replayed: false,
        refers_to_final: false,
        first_reason: BOOK_REASON,
        policy_version: V1,
        matched_rules: ["trusted-destination"],
      },
      {
        decided_at: at("2026-11-10T09:01:00Z"),
        decision: "allow",
        replayed: true,
        refers_to_final: true,
        first_reason: BOOK_REASON,
        policy_version: V1,
        matched_rules: ["trusted-destination"],
      },
      {
        decided_at: at("2026-11-10T09:02:00Z"),
        decision: "deny",
        replayed: false,
        refers_to_final: true,
        first_reason: "conflicting snapshot",
        policy_version: V1,
        matched_rules: [],
      },
    ]);
  });

  it("Q2 finds allows above the amount to destinations outside the address book", async () => {
    expect(await run(2)).toEqual([
      { decided_at: at("2026-11-11T10:00:00Z"), transaction_name: name("t-internal"), asset: ETH, amount: "5", source: HOT, destination: COLD, destination_internal: true },
    ]);
  });

  it("Q3 counts decisions per policy version in the period", async () => {
    const rows = (await run(3)).map((r) => [r.policy_version, r.decision, Number(r.decisions)]);
    expect(rows).toEqual([
      [V1, "allow", 1],
      [V1, "deny", 2],
      [V2, "allow", 2],
      [V2, "defer", 1],
      [V2, "deny", 1],
    ]);
  });

  it("Q4 lists the decisions about one wallet's transfers in the range", async () => {
    const rows = (await run(4)).map((r) => [r.transaction_name, r.decision, r.asset, r.amount, r.destination, r.address_book_name]);
    expect(rows).toEqual([
      [name("t-otc"), "allow", USDC, "1000", OTC_DESK, "Acme OTC desk"],
      [name("t-stranger"), "deny", ETH, "1", STRANGER, null],
      [name("t-big"), "deny", USDC, "60000", OTC_DESK, "Acme OTC desk"],
      [name("t-later"), "allow", USDC, "500", OTC_DESK, "Acme OTC desk"],
      [name("t-internal"), "allow", ETH, "5", COLD, null],
    ]);
  });

  it("Q5 lists repeats and conflicting snapshots with their final decision", async () => {
    expect(await run(5)).toEqual([
      {
        decided_at: at("2026-11-10T09:01:00Z"),
        transaction_name: name("t-otc"),
        kind: "repeat",
        decision: "allow",
        first_reason: BOOK_REASON,
        final_decided_at: at("2026-11-10T09:00:00Z"),
        final_rows: 1,
      },
      {
        decided_at: at("2026-11-10T09:02:00Z"),
        transaction_name: name("t-otc"),
        kind: "conflict",
        decision: "deny",
        first_reason: "conflicting snapshot",
        final_decided_at: at("2026-11-10T09:00:00Z"),
        final_rows: 1,
      },
    ]);
  });

  // The views' lookup read the column replay_of, not the function's argument, and matched nothing.
  it("the views show a repeat with the transfers of the decision it repeats", async () => {
    const { rows } = await sql<{ decision: string; assets: string[]; amounts: string[] }>`
      select decision, assets, amounts::text[] as amounts from decision_log where transaction_name = ${name("t-otc")} and replayed`.execute(db);
    expect(rows).toEqual([{ decision: "allow", assets: [USDC], amounts: ["1000"] }]);
  });

  it("Q6 finds the defer that was later signed", async () => {
    expect(await run(6)).toEqual([
      { transaction_name: name("t-later"), deferred_at: at("2026-11-11T09:00:00Z"), deferred_because: "address book is 20 minutes old", signed_at: at("2026-11-11T09:05:00Z") },
    ]);
  });

  it("Q7 explains the voided charges by the failing event", async () => {
    const rows = (await run(7)).map((r) => [r.transaction_name, r.group_key, r.amount, r.event, r.new_state, r.event_at]);
    expect(rows).toEqual([
      [name("t-internal"), walletAssetGroup(ETH), "5", "TRANSACTION_STATE_UPDATED", "FAILED", at("2026-11-11T10:05:00Z")],
      [name("t-internal"), WALLET_GROUP, "5", "TRANSACTION_STATE_UPDATED", "FAILED", at("2026-11-11T10:05:00Z")],
    ]);
  });

  it("Q8 counts denials per day and rule", async () => {
    const rows = (await run(8)).map((r) => [(r.day as Date).toISOString().slice(0, 10), r.rule, Number(r.denials), Number(r.transactions)]);
    expect(rows).toEqual([
      ["2026-11-10", "(conflicting snapshot)", 1, 1],
      ["2026-11-10", "untrusted-destination", 1, 1],
      ["2026-11-11", "usdc-transfer-limit", 1, 1],
    ]);
  });

  it("Q9 shows a transaction's decisions and events in order", async () => {
    const rows = (await run(9)).map((r) => [(r.at as Date).toISOString(), r.kind, r.outcome, r.source]);
    expect(rows).toEqual([
      ["2026-11-10T08:59:59.000Z", "event", "TRANSACTION_CREATED", "events"],
      ["2026-11-10T09:00:00.000Z", "decision", "allow", "decisions"],
      ["2026-11-10T09:01:00.000Z", "repeat", "allow", "decisions"],
      ["2026-11-10T09:02:00.000Z", "conflict", "deny", "decisions"],
      ["2026-11-10T09:30:00.000Z", "event", "COMPLETED", "events"],
    ]);
  });

  it("Q10 lists the decisions a rule matched", async () => {
    // numeric[] arrives parsed by the client; compare its text.
    const rows = (await run(10)).map((r) => ({ ...r, amounts: (r.amounts as unknown[]).map(String) }));
    expect(rows).toEqual([
      {
        decided_at: at("2026-11-11T08:00:00Z"),
        transaction_name: name("t-big"),
        decision: "deny",
        first_reason: "A single USDC transfer may not exceed 50,000",
        assets: [USDC],
        amounts: ["60000"],
      },
    ]);
  });

  it("Q11 shows the wallet's velocity groups per asset, never adding two assets' amounts, with the voided charge counted apart", async () => {
    const rows = (await run(11)).map((r) => [r.group_key, r.asset, Number(r.voided_charges), (r.last_charged_at as Date).toISOString(), r.last_transaction]);
    expect(rows).toEqual(
      expect.arrayContaining([
        [walletAssetGroup(USDC), USDC, 0, "2026-11-11T09:05:00.000Z", name("t-later")],
        [walletAssetGroup(ETH), ETH, 1, "2026-11-11T10:00:00.000Z", name("t-internal")],
        [WALLET_GROUP, USDC, 0, "2026-11-11T09:05:00.000Z", name("t-later")],
        [WALLET_GROUP, ETH, 1, "2026-11-11T10:00:00.000Z", name("t-internal")],
      ]),
    );
    expect(rows).toHaveLength(4);
  });

  it("Q12 shows how far the chain reaches, ending at the checkpoint's hash", async () => {
    const checkpoint = await latestCheckpoint(db);
    const rows = (await run(12)).map((r) => [r.source, Number(r.sealed_rows), Number(r.last_position), r.last_hash]);
    expect(rows).toEqual([
      ["decisions", 8, 8, checkpoint?.hash],
      ["events", 3, 11, checkpoint?.hash],
    ]);
  });
});

// Q7 explained a void by hand with whatever event came last before it.
describe("docs/audit-queries.sql Q7 with a void by hand", () => {
  let tdb: TestDatabase;
  const queries = loadQueries();

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const db = tdb.handle.db;
    await seedTrail(db);
    // The platform reported t-later DROPPED; the operator, knowing its signature dead, voided it by hand.
    const payload = JSON.stringify({ id: "ev-dropped", type: "TRANSACTION_STATE_UPDATED", resource: name("t-later"), newState: "DROPPED" });
    await sql`insert into events (id, received_at, vault, type, resource_type, resource, new_state, payload, body, signature)
      values ('ev-dropped', '2026-11-11T11:00:00Z', ${VAULT}, 'TRANSACTION_STATE_UPDATED', 'transaction', ${name("t-later")}, 'DROPPED', ${payload}::jsonb, convert_to(${payload}, 'UTF8'), 'test')`.execute(
      db,
    );
    await voidCharges(db, name("t-later"), at("2026-11-11T11:30:00Z"), { operator: "alice", reason: "nonce reused by t-next: the signature can never land" });
  });
  afterAll(async () => tdb?.drop());

  it("names the operator and reason of a void by hand, and the failing event of one the platform caused", async () => {
    const rows = (await sql.raw<Record<string, unknown>>(queries.get(7)!).execute(tdb.handle.db)).rows;
    expect(rows.map((r) => [r.transaction_name, r.group_key, r.voided_by, r.operator, r.reason, r.event, r.new_state])).toEqual([
      [name("t-internal"), walletAssetGroup(ETH), "event", null, null, "TRANSACTION_STATE_UPDATED", "FAILED"],
      [name("t-internal"), WALLET_GROUP, "event", null, null, "TRANSACTION_STATE_UPDATED", "FAILED"],
      [name("t-later"), walletAssetGroup(USDC), "by hand", "alice", "nonce reused by t-next: the signature can never land", null, null],
      [name("t-later"), WALLET_GROUP, "by hand", "alice", "nonce reused by t-next: the signature can never land", null, null],
    ]);
    expect(rows.at(-1)?.database_user).toBe("postgres");
  });
});

// A twin of the final decision made the views and Q5 fail with
// "more than one row returned by a subquery", exactly when the trail had been tampered with.
describe("docs/audit-queries.sql and the views with a twin of a final decision", () => {
  let tdb: TestDatabase;
  const queries = loadQueries();
  const run = async (n: number) => (await sql.raw<Record<string, unknown>>(queries.get(n)!).execute(tdb.handle.db)).rows;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const db = tdb.handle.db;
    await seedTrail(db);
    await sealPending(db);
    // As the owner could: the allow t-otc's repeat refers to, again, dated a second earlier, numbered
    // before it, judging 9999 USDC. Written first by seq, it is not the row the chain holds.
    await sql`insert into decisions overriding system value
      select (jsonb_populate_record(null::decisions, to_jsonb(d) || jsonb_build_object(
        'seq', 0, 'decided_at', d.decided_at - interval '1 second',
        'facts', jsonb_set(d.facts, '{0,transfer,amount}', '"9999"')))).*
      from decisions d where d.transaction_name = ${name("t-otc")} and d.replay_of is null`.execute(db);
  });
  afterAll(async () => tdb?.drop());

  it("Q5 names the sealed final decision and says a second row carries its id", async () => {
    expect((await run(5)).map((r) => [r.kind, r.final_decided_at, r.final_rows])).toEqual([
      ["repeat", at("2026-11-10T09:00:00Z"), 2],
      ["conflict", at("2026-11-10T09:00:00Z"), 2],
    ]);
  });

  it("the views show a repeat with the transfers of the sealed decision it repeats", async () => {
    const { rows } = await sql<{ amount: string }>`
      select amount::text from decision_transfers where transaction_name = ${name("t-otc")} and replayed`.execute(tdb.handle.db);
    expect(rows).toEqual([{ amount: "1000" }]);
    expect((await run(1)).map((r) => r.decision)).toEqual(["allow", "allow", "allow", "deny"]);
  });
});
