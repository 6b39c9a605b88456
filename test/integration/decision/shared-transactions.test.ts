/**
 * Deliveries that wait for the database together share one transaction
 * (src/decision/batches.ts). What must not change: every answer has its own committed row and
 * charges; deliveries of one wallet (one window group) or one name never share a transaction, so
 * a limit holds exactly under a burst and a name is decided once; and no member of a shared
 * transaction can take another's decision with it, by a failing write or an expired deadline.
 */
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { installStatementRecorder, type StatementRecorder } from "../../../bench/capture.js";
import type { DecisionRow } from "../../../src/audit/decision-rows.js";
import { openDatabase, type DatabaseHandle, type Db } from "../../../src/database.js";
import { readArgs } from "../../../src/decision/session-args.js";
import { groupHashHex, lockIdOfHash } from "../../../src/velocity/group-hash.js";
import { backends } from "../../support/backends.js";
import { assetTransfer, COLD_WALLET, VAULT } from "../../support/bodies.js";
import type { Delivery } from "../../support/cosigner.js";
import { afterAHeldOne, newTransactionName, outcomes } from "../../support/decision-sessions.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { serviceWithPolicy, type PolicyService } from "../../support/service.js";

const POLICY = `
version: "shared-transactions.1"
default: deny
windows:
  - name: daily_out
    duration: 24h
    groupBy: [sourceWallet, asset]
    measure: amount
rules:
  - id: daily-limit
    decision: deny
    reason: More than 10 a day from one wallet
    when: {">": [{"var": "velocity.daily_out.amountAfter"}, "10"]}
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;

const wallet = (i: number) => `${VAULT}/wallets/shared${i}`;

/** Each decision row of these names, with the id of the transaction that wrote it. */
async function rowsOf(db: Db, names: string[]) {
  const { rows } = await sql<{ id: string; name: string; decision: string; replayed: boolean; xid: string }>`
    select id, transaction_name as name, decision, replayed, written_xid::text as xid
    from decisions where transaction_name = any(${names}::text[])`.execute(db);
  return rows;
}

async function chargesOf(db: Db, names: string[]) {
  const { rows } = await sql<{ decision_id: string; amount: string }>`
    select decision_id, amount::text from velocity_charges where transaction_name = any(${names}::text[])`.execute(db);
  return rows;
}

/** Until `n` sessions wait for an advisory lock (those `holder` holds). */
async function untilWaitingForLocks(holder: pg.Client, n: number): Promise<void> {
  await vi.waitFor(
    async () => {
      const { rows } = await holder.query<{ n: number }>(
        "select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())",
      );
      expect(rows[0]!.n, "sessions waiting for the held locks").toBeGreaterThanOrEqual(n);
    },
    { timeout: 5_000, interval: 25 },
  );
}

/**
 * Delivers `first`, held in a shared transaction (its name's lock held here) until the others have
 * queued behind it; they then start shared transactions of at least MIN_MEMBERS_BESIDE. Returns
 * every delivery, `first`'s first.
 */
async function deliverQueued(suite: PolicyService, first: { name: string }, others: { name: string }[]): Promise<Delivery[]> {
  const holder = new pg.Client({ connectionString: suite.tdb.url });
  await holder.connect();
  let held: Promise<Delivery>;
  let rest: Promise<Delivery>[];
  try {
    await holder.query("begin");
    await holder.query("select pg_advisory_xact_lock(hashtextextended('decision:' || $1::text, 0))", [first.name]);
    held = suite.cosigner.deliver(first);
    await untilWaitingForLocks(holder, 1);
    rest = others.map((body) => suite.cosigner.deliver(body));
    await sleep(200);
    await holder.query("commit");
  } finally {
    await holder.end();
  }
  return Promise.all([held, ...rest]);
}

describe("deliveries at once, through the service", () => {
  const suite = serviceWithPolicy(POLICY);

  it("transfers from many wallets share transactions; each is signed with its own committed row and charge", async () => {
    const bodies = Array.from({ length: 40 }, (_, i) => assetTransfer({ amount: "1", source: wallet(i), destination: COLD_WALLET }));
    const deliveries = await deliverQueued(suite, bodies[0]!, bodies.slice(1));
    expect(deliveries.map((d) => d.verdict)).toEqual(bodies.map(() => "signed"));
    const names = bodies.map((b) => b.name);
    const rows = await rowsOf(suite.tdb.handle.db, names);
    expect(rows).toHaveLength(40);
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(deliveries.map((d) => (d.body as { decisionId: string }).decisionId)));
    expect(new Set(rows.map((r) => r.xid)).size).toBeLessThan(40);
    const charges = await chargesOf(suite.tdb.handle.db, names);
    expect(new Set(charges.map((c) => c.decision_id))).toEqual(new Set(rows.map((r) => r.id)));
  });

  it("transfers from one wallet never share a transaction, and its daily limit holds exactly", async () => {
    const source = wallet(1000);
    const bodies = Array.from({ length: 30 }, () => assetTransfer({ amount: "1", source, destination: COLD_WALLET }));
    // Other wallets' transfers at the same time, which may share transactions with this wallet's.
    const others = Array.from({ length: 20 }, (_, i) => assetTransfer({ amount: "1", source: wallet(2000 + i), destination: COLD_WALLET }));
    const [deliveries] = await Promise.all([Promise.all(bodies.map((b) => suite.cosigner.deliver(b))), Promise.all(others.map((b) => suite.cosigner.deliver(b)))]);
    const verdicts = deliveries.map((d) => d.verdict);
    expect(verdicts.filter((v) => v === "signed")).toHaveLength(10);
    expect(verdicts.filter((v) => v === "canceled")).toHaveLength(20);
    const rows = await rowsOf(
      suite.tdb.handle.db,
      bodies.map((b) => b.name),
    );
    expect(new Set(rows.map((r) => r.xid)).size).toBe(30);
    const charges = await chargesOf(
      suite.tdb.handle.db,
      bodies.map((b) => b.name),
    );
    expect(charges.map((c) => Number(c.amount)).reduce((a, b) => a + b, 0)).toBe(10);
  });

  it("deliveries of one transaction at once: one decision, the others repeat it, one charge", async () => {
    const body = assetTransfer({ amount: "1", source: wallet(3000), destination: COLD_WALLET });
    const deliveries = await Promise.all(Array.from({ length: 10 }, () => suite.cosigner.deliver(body)));
    expect(deliveries.map((d) => d.verdict)).toEqual(deliveries.map(() => "signed"));
    const rows = await rowsOf(suite.tdb.handle.db, [body.name]);
    expect(rows.filter((r) => !r.replayed)).toHaveLength(1);
    expect(rows.filter((r) => r.replayed)).toHaveLength(9);
    expect(new Set(rows.map((r) => r.xid)).size).toBe(10);
    expect(await chargesOf(suite.tdb.handle.db, [body.name])).toHaveLength(1);
  });

  it("one name delivered at once with different amounts: one decision, every other delivery a conflicting snapshot, one charge", async () => {
    const name = assetTransfer().name;
    // Each from another wallet: no window group keeps them apart, only the name.
    const bodies = ["1", "2", "3", "4", "5", "6", "7", "8"].map((amount, i) => assetTransfer({ name, amount, source: wallet(4000 + i), destination: COLD_WALLET }));
    // They queue behind a delivery held in a shared transaction, and then share the next ones.
    const blocker = assetTransfer({ amount: "1", source: wallet(4999), destination: COLD_WALLET });
    const deliveries = (await deliverQueued(suite, blocker, bodies)).slice(1);
    const rows = await rowsOf(suite.tdb.handle.db, [name]);
    const finals = rows.filter((r) => !r.replayed && r.decision !== "defer");
    const { rows: reasons } = await sql<{ reasons: string[] }>`select reasons from decisions where transaction_name = ${name} and replay_of is not null`.execute(
      suite.tdb.handle.db,
    );
    expect(deliveries.filter((d) => d.verdict === "signed")).toHaveLength(1);
    expect(finals.filter((r) => r.decision === "allow")).toHaveLength(1);
    expect(reasons).toHaveLength(7);
    expect(reasons.every((r) => r.reasons.includes("conflicting snapshot"))).toBe(true);
    const charges = await chargesOf(suite.tdb.handle.db, [name]);
    expect(charges).toHaveLength(1);
  });
});

const namesOf = (n: number) => Array.from({ length: n }, newTransactionName);
const poisonedRow = (r: DecisionRow) => ({ ...r, decision: "maybe" as DecisionRow["decision"] });

describe("members of a shared transaction on a Postgres server", () => {
  let tdb: TestDatabase;
  let oneConnection: DatabaseHandle;
  let recorder: StatementRecorder;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    oneConnection = await openDatabase({ url: tdb.url, maxConnections: 1 });
    recorder = installStatementRecorder();
  });
  afterAll(async () => {
    recorder?.uninstall();
    await oneConnection?.close();
    await tdb?.drop();
  });

  /** Runs `work`, and whether a batch read was sent meanwhile (the members did share a transaction). */
  async function shared<T>(work: () => Promise<T>): Promise<{ value: T; batched: boolean }> {
    let value!: T;
    const statements = await recorder.capture(async () => {
      value = await work();
    });
    return { value, batched: statements.some((s) => s.text.includes("countersign_decision_read_batch")) };
  }

  it("commit together, each with its own row", async () => {
    const names = namesOf(5);
    const { value, batched } = await shared(() =>
      afterAHeldOne(
        oneConnection.db,
        names.map((name) => ({ name })),
      ),
    );
    expect(batched).toBe(true);
    expect(outcomes(value.members)).toEqual(names.map(() => "committed"));
    const rows = await rowsOf(tdb.handle.db, names);
    expect(rows).toHaveLength(5);
    expect(new Set(rows.map((r) => r.xid)).size).toBe(1);
  });

  it("a member whose write fails takes no other member's decision with it", async () => {
    const names = namesOf(5);
    const poisoned = names[2]!;
    const members = names.map((name) => (name === poisoned ? { name, row: poisonedRow } : { name }));
    const { value, batched } = await shared(() => afterAHeldOne(oneConnection.db, members));
    expect(batched).toBe(true);
    expect(outcomes(value.members)).toEqual(names.map((name) => (name === poisoned ? "failed" : "committed")));
    const rows = await rowsOf(tdb.handle.db, names);
    expect(rows.map((r) => r.name).sort()).toEqual(names.filter((n) => n !== poisoned).sort());
  });

  it("a member held past its deadline is not committed; the others are", async () => {
    const names = namesOf(4);
    const late = names[1]!;
    // The late member is held before its write for twice its budget: the scenario, not a wait.
    let lateHold: Promise<void> = Promise.resolve();
    const members = names.map((name) => (name === late ? { name, budgetMs: 300, beforeWrite: () => (lateHold = sleep(600)) } : { name }));
    const { value, batched } = await shared(() => afterAHeldOne(oneConnection.db, members));
    expect(batched).toBe(true);
    expect(outcomes(value.members)).toEqual(names.map((name) => (name === late ? "deadline" : "committed")));
    // A write the late member sent after its hold would go over the one connection before this query.
    await lateHold;
    await sql`select 1`.execute(oneConnection.db);
    const rows = await rowsOf(tdb.handle.db, names);
    expect(rows.map((r) => r.name).sort()).toEqual(names.filter((n) => n !== late).sort());
  });

  it("the server refuses a batch that names one transaction twice or shares a window group, and waits for no lock", async () => {
    const client = new pg.Client({ connectionString: tdb.url });
    const holder = new pg.Client({ connectionString: tdb.url });
    await client.connect();
    await holder.connect();
    try {
      const now = new Date();
      const read = (name: string, key: string) => readArgs(name, [key], [], now, true);
      const call = (reads: unknown[]) => client.query("select * from countersign_decision_read_batch($1::jsonb, 5000)", [JSON.stringify(reads)]);
      const [a, b] = namesOf(2) as [string, string];
      await expect(call([read(a, "g1"), read(a, "g2")])).rejects.toThrow(/names one transaction twice/);
      await expect(call([read(a, "g1"), read(b, "g1")])).rejects.toThrow(/shares a window group/);
      // Another session holds b's group lock until the read has answered: a read that waited for it
      // would end in its lock timeout instead; this one marks b busy and reads a.
      const busyKey = `group-${randomUUID()}`;
      await holder.query("begin");
      await holder.query("select pg_advisory_xact_lock($1::int8)", [lockIdOfHash(groupHashHex(busyKey)).toString()]);
      await client.query("begin");
      const { rows } = await call([read(a, "g1"), read(b, busyKey)]);
      await client.query("rollback");
      expect(rows.map((r: { ord: number; busy: boolean }) => [r.ord, r.busy])).toEqual([
        [0, false],
        [1, true],
      ]);
    } finally {
      await holder.query("rollback");
      await Promise.all([client.end(), holder.end()]);
    }
  });
});

describe("members of a shared transaction on the embedded PGlite", () => {
  let handle: { db: Db; close(): Promise<void> };

  beforeAll(async () => {
    handle = await backends.find((b) => b.name === "embedded PGlite")!.open();
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("commit together, each with its own row; a failing member takes none with it", async () => {
    const names = namesOf(6);
    const poisoned = names[4]!;
    const members = names.map((name) => (name === poisoned ? { name, row: poisonedRow } : { name }));
    const { members: settled } = await afterAHeldOne(handle.db, members);
    expect(outcomes(settled)).toEqual(names.map((name) => (name === poisoned ? "failed" : "committed")));
    const rows = await rowsOf(handle.db, names);
    expect(rows.map((r) => r.name).sort()).toEqual(names.filter((n) => n !== poisoned).sort());
  });

  it("deliveries waiting together are written by one transaction", async () => {
    const names = namesOf(6);
    const { members: settled } = await afterAHeldOne(
      handle.db,
      names.map((name) => ({ name })),
    );
    expect(outcomes(settled)).toEqual(names.map(() => "committed"));
    const rows = await rowsOf(handle.db, names);
    expect(rows).toHaveLength(6);
    expect(new Set(rows.map((r) => r.xid)).size).toBe(1);
  });
});
