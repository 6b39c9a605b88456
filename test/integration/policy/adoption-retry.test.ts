/**
 * A change whose adoption could not be written: a
 * revert to an older digest reached a pod while its database connection blipped; the reload's
 * adoption failed and the heartbeat adopted nothing (a known digest is no change), so the revert
 * stayed older than the bundle it reverted. The pod stood down for as long as a pod whose
 * git-sync is stuck on the reverted bundle lived, and that pod went on signing by it.
 *
 * And a heartbeat that was under way when a reload applied a newer bundle: its answer, for the
 * bundle replaced, was taken for the new one's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../../src/database.js";
import { silentLogger } from "../../../src/log.js";
import { startPolicyAdoption, type PolicyAdoption } from "../../../src/policy/adoption.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";

const X = { version: "x", digest: "a".repeat(64) };
const Y = { version: "y", digest: "b".repeat(64) };

/** The database, with its next `transaction()` failing as a dropped connection would. */
function blipping(db: Db): { db: Db; blip: () => void } {
  let failNext = false;
  const proxy = new Proxy(db, {
    get(target, property, receiver) {
      if (property === "transaction" && failNext) {
        failNext = false;
        return () => ({
          execute: async () => {
            throw new Error("connection terminated unexpectedly");
          },
        });
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db: proxy, blip: () => (failNext = true) };
}

describe("a change whose adoption could not be written", () => {
  let tdb: TestDatabase;
  const running: PolicyAdoption[] = [];
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => {
    for (const r of running) await r.stop();
    await tdb?.drop();
  });

  it("is written at the next heartbeat, so a revert is the newest bundle", async () => {
    const start = (holder: string, db: Db, current: () => typeof X) => {
      const a = startPolicyAdoption({ db, logger: silentLogger, holder, current, intervalMs: 3_600_000 });
      running.push(a);
      return a;
    };
    let onReverting = X;
    const flaky = blipping(tdb.handle.db);
    const reverting = start("reverting", flaky.db, () => onReverting);
    const stuck = start("stuck", tdb.handle.db, () => Y);
    await reverting.adopt(false); // X, first
    onReverting = Y;
    await reverting.adopt(true); // Y merged
    await stuck.adopt(false); // a pod on Y whose git-sync then sticks
    // The merge is reverted: X again, whose adoption hits a blip.
    onReverting = X;
    flaky.blip();
    await reverting.adopt(true);
    // The database is back; the heartbeats run.
    await reverting.check();
    await stuck.check();
    expect(reverting.problem()).toBeNull();
    expect(stuck.problem()).toMatch(/newer policy bundle is in force/);
  });
});

/**
 * The database, with the next raw query (a heartbeat's look for newer bundles) held until released;
 * `reached` resolves once that query is at the gate.
 */
function holding(db: Db): { db: Db; hold: () => Promise<{ release: () => void; reached: Promise<void> }> } {
  let gate: Promise<void> | null = null;
  let arrived: () => void = () => undefined;
  const proxy = new Proxy(db, {
    get(target, property, receiver) {
      if (property === "getExecutor") {
        const executor = target.getExecutor();
        return () =>
          new Proxy(executor, {
            get(e, p, r) {
              if (p !== "executeQuery" || gate === null) {
                const value = Reflect.get(e, p, r);
                return typeof value === "function" ? value.bind(e) : value;
              }
              const waitFor = gate;
              gate = null;
              return async (...args: Parameters<typeof executor.executeQuery>) => {
                arrived();
                await waitFor;
                return executor.executeQuery.call(executor, ...args);
              };
            },
          });
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return {
    db: proxy,
    hold: async () => {
      let release!: () => void;
      gate = new Promise((resolve) => (release = resolve));
      const reached = new Promise<void>((resolve) => (arrived = resolve));
      return { release, reached };
    },
  };
}

describe("a heartbeat under way when a reload applies a newer bundle", () => {
  let tdb: TestDatabase;
  const running: PolicyAdoption[] = [];
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => {
    for (const r of running) await r.stop();
    await tdb?.drop();
  });

  it("does not make the process stand down for the bundle it now decides by", async () => {
    let current = X;
    const held = holding(tdb.handle.db);
    const pod = startPolicyAdoption({ db: held.db, logger: silentLogger, holder: "pod", current: () => current, intervalMs: 3_600_000 });
    running.push(pod);
    await pod.adopt(false);
    expect(pod.problem()).toBeNull();
    // A heartbeat for X records the pod on X, then waits before its look for newer bundles.
    const { release, reached } = await held.hold();
    const heartbeat = pod.check();
    await reached;
    // Meanwhile the merge of Y reaches this pod and is adopted.
    current = Y;
    await pod.adopt(true);
    expect(pod.problem()).toBeNull();
    release();
    await heartbeat;
    expect(pod.problem()).toBeNull();
  });
});
