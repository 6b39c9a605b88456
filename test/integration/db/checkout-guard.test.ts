/**
 * The decision deadline's hold on its connection (src/db/checkout-guard.ts), given to the pipeline
 * opener explicitly: at expiry the server session is destroyed, so an uncommitted transaction dies
 * with it; a checkout after expiry is refused and the connection goes back to the pool unused.
 * Postgres server only: PGlite has one in-process connection and nothing to destroy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CheckoutRefused } from "../../../src/db/checkout-guard.js";
import type { Db } from "../../../src/database.js";
import { withPipeline } from "../../../src/db/pipeline.js";
import { Deadline } from "../../../src/decision/deadline.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";

const far = () => new Deadline(performance.now() + 60_000, 60_000);

describe("the decision deadline's guard on its pipeline connection", () => {
  let tdb: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    tdb = await createTestDatabase();
    db = tdb.handle.db;
    await withPipeline(db, (p) => p.send([{ text: "create table guard_probe (id int)" }]));
  });
  afterAll(async () => tdb?.drop());

  const backendAlive = async (pid: number) =>
    (await withPipeline(db, (p) => p.send([{ text: "select count(*)::int as n from pg_stat_activity where pid = $1", values: [pid] }])))[0]!.n === 1;

  it("destroys the session at expiry: the open transaction's insert never commits", async () => {
    const guard = far();
    let pid = 0;
    const work = withPipeline(
      db,
      async (p) => {
        pid = (await p.send([{ text: "begin" }, { text: "insert into guard_probe values (1)" }, { text: "select pg_backend_pid() as pid" }]))[0]!.pid as number;
        guard.expire();
        await p.send([{ text: "commit" }]);
      },
      guard,
    );
    await expect(work).rejects.toThrow();
    await expect.poll(() => backendAlive(pid)).toBe(false);
    const rows = await withPipeline(db, (p) => p.send([{ text: "select count(*)::int as n from guard_probe" }]));
    expect(rows).toEqual([{ n: 0 }]);
  });

  it("refuses a checkout after expiry, and the connection serves the next work", async () => {
    const guard = far();
    guard.expire();
    await expect(withPipeline(db, (p) => p.send([{ text: "select 1 as one" }]), guard)).rejects.toBeInstanceOf(CheckoutRefused);
    expect(await withPipeline(db, (p) => p.send([{ text: "select 2 as two" }]), far())).toEqual([{ two: 2 }]);
  });

  it("leaves a connection whose work finished in time to the pool, alive", async () => {
    const guard = far();
    const pid = (await withPipeline(db, (p) => p.send([{ text: "select pg_backend_pid() as pid" }]), guard))[0]!.pid as number;
    guard.expire();
    expect(await backendAlive(pid)).toBe(true);
  });
});
