/**
 * Replicas on different policy bundles (src/policy/adoption.ts). A merged pull request reaches the
 * pods one by one, a pod whose git-sync keeps failing never gets it, and the co-signer's polls land
 * on any pod: a pod still on the replaced bundle signed what the new one defers or denies. Now a process that sees a newer bundle in force on a live process
 * decides nothing until it loads it, or until no live process decides by it.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CosignerSimulator, type Delivery } from "../../support/cosigner.js";
import { assetTransfer } from "../../support/bodies.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService, writeBundle } from "../../support/service.js";
import { newerInForce } from "../../../src/policy/adoption.js";

type Running = Awaited<ReturnType<typeof startTestService>>;

const deliver = (s: Running, amount: string): Promise<Delivery> => new CosignerSimulator({ webhookUrl: `${s.url}/v1/cosigner/webhook` }).deliver(assetTransfer({ amount }));

/** Version `n` allows transfers to internal destinations up to `limit`. */
function policy(n: number, limit: string): string {
  return `
version: "adoption.${n}"
default: deny
rules:
  - {id: limit, decision: deny, reason: "over ${limit}", when: {">": [{"var": "transfer.amount"}, "${limit}"]}}
  - {id: internal, decision: allow, when: {"var": "transfer.destination.internal"}}
`;
}

describe("replicas deciding by different policy bundles", () => {
  let tdb: TestDatabase;
  const started: Running[] = [];
  const dirs = { a: writeBundle(policy(1, "100")), b: writeBundle(policy(1, "100")), c: writeBundle(policy(1, "100")) };
  let a: Running;
  let b: Running;

  const start = async (dir: string) => {
    const s = await startTestService({ database: tdb.handle, policiesDir: dir });
    started.push(s);
    return s;
  };
  /** Writes version `n` into a replica's bundle and reloads it, as git-sync and the poll would. */
  const merge = async (s: Running, dir: string, n: number, limit: string) => {
    const { rows } = await sql<{ now: Date }>`select now() as now`.execute(tdb.handle.db);
    writeFileSync(path.join(dir, "policy.yaml"), policy(n, limit));
    expect(await s.policy.reload()).toBe(true);
    // The reload's own adoption runs unawaited: wait for it, as the other replicas' heartbeats do
    // (adopting here in its place tested no reload's).
    const digest = s.policy.current().digest;
    const adopted = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from policy_adoptions where digest = ${digest} and adopted_at >= ${rows[0]!.now}`.execute(tdb.handle.db)).rows[0]!.n;
    await vi.waitFor(async () => expect(await adopted()).toBe(1), { timeout: 30_000, interval: 20 });
  };
  const checkAll = () => Promise.all(started.map((s) => s.adoption.check()));

  beforeAll(async () => {
    tdb = await createTestDatabase();
    a = await start(dirs.a);
    b = await start(dirs.b);
  });
  afterAll(async () => {
    for (const s of started) await s.stop().catch(() => undefined);
    await tdb?.drop();
  });

  it("a pod still on the replaced bundle signs nothing once another has the new one", async () => {
    expect((await deliver(a, "60")).verdict).toBe("signed");
    // The pull request lowers the limit to 50; it reaches b first.
    await merge(b, dirs.b, 2, "50");
    await checkAll();
    const onOld = await deliver(a, "60");
    expect(onOld.status).toBe(503);
    expect(onOld.body).toMatchObject({ error: { code: "DEFERRED", message: expect.stringMatching(/policy bundle has been replaced on another replica/) } });
    expect((await deliver(b, "60")).body).toMatchObject({ signTransaction: false, reasons: ["over 50"] });
    const status = await (await fetch(`${a.url}/v1/policy`)).json();
    expect(status).toMatchObject({ version: "adoption.1", newerBundleElsewhere: { version: "adoption.2" } });
    // Once it loads the new bundle, it decides again, by it.
    await merge(a, dirs.a, 2, "50");
    await checkAll();
    expect((await deliver(a, "60")).body).toMatchObject({ signTransaction: false, reasons: ["over 50"] });
    expect((await deliver(a, "40")).verdict).toBe("signed");
  });

  it("a pod restarting on a bundle already replaced (a stuck git-sync) does not make it the newest again", async () => {
    const stuck = await start(dirs.c); // still version 1
    await checkAll();
    expect((await deliver(stuck, "60")).status).toBe(503);
    expect((await deliver(a, "40")).verdict).toBe("signed");
    expect((await deliver(b, "40")).verdict).toBe("signed");
  });

  it("a revert to the older bundle is a change: it becomes the newest, and the pods not yet reverted stand down", async () => {
    await merge(a, dirs.a, 1, "100");
    await checkAll();
    expect((await deliver(a, "60")).verdict).toBe("signed");
    expect((await deliver(b, "40")).status).toBe(503);
    // The pod that never left version 1 decides again: its bundle is the newest.
    expect((await deliver(started[2]!, "60")).verdict).toBe("signed");
  });

  it("a pod whose newer bundle no live process holds any more decides again", async () => {
    // b alone is on version 2, now older than the revert; a and the stuck pod are on version 1.
    // Stopping a and the stuck pod leaves b the only live process: nothing newer is in force.
    await a.stop();
    await started[2]!.stop();
    started.splice(0, started.length, b);
    await b.adoption.check();
    expect((await deliver(b, "40")).verdict).toBe("signed");
  });
});

describe("the rows of processes that are gone", () => {
  it("are removed a day after they last said which bundle they decide by", async () => {
    const tdb = await createTestDatabase();
    try {
      const digest = "a".repeat(64);
      await tdb.handle.db.executeQuery(sql`insert into policy_adoptions (digest, version) values (${digest}, 'gone.1')`.compile(tdb.handle.db));
      await tdb.handle.db.executeQuery(
        sql`insert into policy_holders (holder, digest, seen_at) values ('crashed:1:abc', ${digest}, now() - interval '25 hours'), ('recent:2:def', ${digest}, now() - interval '2 hours')`.compile(
          tdb.handle.db,
        ),
      );
      await newerInForce(tdb.handle.db, "this:3:ghi", { version: "live.1", digest: "b".repeat(64) });
      const { rows } = await tdb.handle.db.executeQuery<{ holder: string }>(sql`select holder from policy_holders order by holder`.compile(tdb.handle.db));
      expect(rows.map((r) => r.holder)).toEqual(["recent:2:def", "this:3:ghi"]);
    } finally {
      await tdb.drop();
    }
  });
});

// A service that failed to start after recording its
// bundle (here its port is taken) left its heartbeat running and its row live, so the replicas on
// the bundle it replaced stood down for a process that never decided anything.
describe("a service that fails to start", () => {
  it("leaves no live row behind to make the others stand down", async () => {
    const tdb = await createTestDatabase();
    const first = await startTestService({ database: tdb.handle, policiesDir: writeBundle(policy(1, "100")) });
    try {
      const port = new URL(first.url).port;
      await expect(startTestService({ database: tdb.handle, policiesDir: writeBundle(policy(2, "50")), env: { COUNTERSIGN_PORT: port } })).rejects.toThrow(/EADDRINUSE/);
      await first.adoption.check();
      expect(first.adoption.problem()).toBeNull();
    } finally {
      await first.stop();
      await tdb.drop();
    }
  });
});

// A process on the newest bundle that cannot decide (its
// clock out of step, or not listening yet) made every other process stand down too, and nobody
// decided anything.
describe("a process on the newest bundle that cannot decide", () => {
  it("makes no one stand down until it can", async () => {
    const tdb = await createTestDatabase();
    let skewMs = 10 * 60_000;
    const old = await startTestService({ database: tdb.handle, policiesDir: writeBundle(policy(1, "100")) });
    const newest = await startTestService({ database: tdb.handle, policiesDir: writeBundle(policy(2, "50")), hostNow: () => Date.now() + skewMs });
    try {
      await old.adoption.check();
      expect(newest.background.clock.problem()).toMatch(/ahead of the database's/);
      expect((await deliver(old, "60")).verdict).toBe("signed");
      // Its clock back in step, it decides, and the process on the older bundle stands down.
      skewMs = 0;
      await newest.background.clock.check();
      await newest.adoption.check();
      await old.adoption.check();
      expect((await deliver(old, "60")).status).toBe(503);
      expect((await deliver(newest, "60")).body).toMatchObject({ signTransaction: false, reasons: ["over 50"] });
    } finally {
      await newest.stop();
      await old.stop();
      await tdb.drop();
    }
  });
});
