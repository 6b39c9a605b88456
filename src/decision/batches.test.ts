/**
 * Who shares a transaction (batches.ts), with a transaction that records its members instead of
 * touching a database: members never share a name or a window group with each other or with a
 * transaction under way; at most `maxShared` shared transactions at once; a failed shared
 * transaction sends each member once more alone, and a failure alone is the member's own.
 */
import { describe, expect, it, vi } from "vitest";
import { DecisionBatcher, Deferred, MembersGuard, MIN_MEMBERS_BESIDE, SharedTransactionFailed, type Member, type Transact } from "./batches.js";
import { Deadline, DeadlinePassed } from "./deadline.js";
import { LockShare, LockShareWaitExpired } from "../db/lock-share.js";
import type { ReadArgs, ReadResult } from "./session-types.js";

const EMPTY_READ: ReadResult = { final: null, review: null, actions: null, failure: null, total_ords: null, total_amounts: null, total_counts: null, total_usds: null };

function args(name: string, locks: number[] = []): ReadArgs {
  return { name, failedStates: "{}", evaluate: true, locks: `{${locks.join(",")}}`, hashes: [], buckets: [], edges: [] };
}

/** `n` consecutive group lock ids from `from`. */
const groups = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

const farDeadline = () => new Deadline(performance.now() + 60_000, 60_000);

/** Lets the batcher act on what was just queued (it starts transactions from promise callbacks). */
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A batcher whose transactions are recorded, and each held open until `finish` is called. */
function recordingBatcher(maxShared: number, fail: (members: readonly Member[]) => boolean = () => false, shareLockIds = 1_000) {
  const transactions: string[][] = [];
  const open: (() => void)[] = [];
  const transact: Transact = async (members) => {
    transactions.push(members.map((m) => m.args.name));
    await new Promise<void>((resolve) => open.push(resolve));
    if (fail(members)) throw new Error("the transaction failed");
    for (const m of members) m.read.resolve(EMPTY_READ);
    await Promise.all(members.map((m) => m.report.promise));
    for (const m of members) m.committed.resolve();
  };
  const share = new LockShare(shareLockIds);
  const batcher = new DecisionBatcher(transact, maxShared, share);
  const decide = (a: ReadArgs) =>
    batcher.run(farDeadline(), async (session) => {
      await session.read(a);
      await session.write({ decision: a.name });
      return a.name;
    });
  /** Lets every transaction under way finish, then waits for the batcher to start the next ones. */
  const finishAll = async () => {
    for (const resolve of open.splice(0)) resolve();
    await tick();
  };
  return { transactions, decide, finishAll, batcher, share };
}

/** A decision on `r`'s batcher with a deadline of its own. */
function batcherRunWithDeadline(r: ReturnType<typeof recordingBatcher>, a: ReadArgs, deadline: Deadline) {
  const decided = r.batcher.run(deadline, async (session) => {
    await session.read(a);
    await session.write({ decision: a.name });
  });
  decided.catch(() => undefined);
  return decided;
}

describe("DecisionBatcher", () => {
  it("starts a delivery at once while a shared transaction is free, and batches those that wait", async () => {
    const r = recordingBatcher(1);
    const decided = ["a", "b", "c", "d"].map((n) => r.decide(args(n, [Number(n.charCodeAt(0))])));
    await tick();
    expect(r.transactions).toEqual([["a"]]);
    await r.finishAll();
    expect(r.transactions).toEqual([["a"], ["b", "c", "d"]]);
    await r.finishAll();
    expect(await Promise.all(decided)).toEqual(["a", "b", "c", "d"]);
  });

  it("never puts two deliveries of one name or one window group in one transaction", async () => {
    const r = recordingBatcher(1);
    const first = r.decide(args("a", [1]));
    await tick();
    const waiting = [r.decide(args("b", [2])), r.decide(args("c", [3])), r.decide(args("b", [4])), r.decide(args("d", [3])), r.decide(args("e", [5]))];
    await r.finishAll(); // a commits; the queue is taken: b, c and e share; the second b (its name) and d (group 3) go alone
    expect(r.transactions).toEqual([["a"], ["b", "c", "e"], ["b"], ["d"]]);
    await r.finishAll();
    expect(await Promise.all([first, ...waiting])).toEqual(["a", "b", "c", "b", "d", "e"]);
  });

  it("sends a delivery that shares a group with a transaction under way alone, to wait for its lock", async () => {
    const r = recordingBatcher(2);
    const decided = [r.decide(args("a", [1, 2]))];
    await tick();
    decided.push(...[r.decide(args("b", [2])), r.decide(args("c", [3])), r.decide(args("d", [4])), r.decide(args("e", [5]))]);
    await tick();
    // Four wait beside a: the second shared transaction takes c, d and e; b (group 2, a's) goes alone.
    expect(r.transactions).toEqual([["a"], ["c", "d", "e"], ["b"]]);
    await r.finishAll();
    await Promise.all(decided);
  });

  it("beside a shared transaction under way, starts the next only once MIN_MEMBERS_BESIDE wait, and never more than maxShared", async () => {
    const r = recordingBatcher(2);
    const decided = [r.decide(args("a", [0]))];
    await tick();
    expect(r.transactions).toEqual([["a"]]); // none under way: at once
    const names = ["b", "c", "d", "e", "f", "g", "h", "i", "j"];
    for (const [i, n] of names.entries()) {
      decided.push(r.decide(args(n, [i + 1])));
      await tick();
      if (i + 1 === MIN_MEMBERS_BESIDE - 1) expect(r.transactions).toEqual([["a"]]); // three wait: not yet
    }
    // The fourth started the second; both under way, the rest wait for one to end.
    expect(r.transactions).toEqual([["a"], names.slice(0, MIN_MEMBERS_BESIDE)]);
    await r.finishAll();
    expect(r.transactions).toEqual([["a"], names.slice(0, MIN_MEMBERS_BESIDE), names.slice(MIN_MEMBERS_BESIDE)]);
    await r.finishAll();
    expect(await Promise.all(decided)).toEqual(["a", ...names]);
  });

  it("sends each member of a failed shared transaction once more alone; a failure alone is the delivery's", async () => {
    const r = recordingBatcher(1, (members) => members.length > 1 || members[0]!.args.name === "bad");
    const first = r.decide(args("a", [1]));
    await tick();
    const waiting = Promise.allSettled([r.decide(args("bad", [2])), r.decide(args("b", [3]))]);
    await tick();
    await r.finishAll(); // a commits; bad and b share the next, which fails
    await r.finishAll(); // each alone: bad fails, b commits
    await r.finishAll();
    expect(await first).toBe("a");
    const [bad, b] = await waiting;
    expect(b).toEqual({ status: "fulfilled", value: "b" });
    expect(bad).toMatchObject({ status: "rejected", reason: { message: "the transaction failed" } });
    expect((bad as PromiseRejectedResult).reason).not.toBeInstanceOf(SharedTransactionFailed);
    expect(r.transactions).toEqual([["a"], ["bad", "b"], ["bad"], ["b"]]);
  });

  it("leaves out of the next transaction a delivery whose deadline passed while it waited", async () => {
    const r = recordingBatcher(1);
    const first = r.decide(args("a", [1]));
    await tick();
    const deadline = new Deadline(performance.now() + 20, 20);
    const late = batcherRunWithDeadline(r, args("late", [2]), deadline);
    const others = [r.decide(args("b", [3])), r.decide(args("c", [4]))];
    await vi.waitFor(() => expect(deadline.expired).toBe(true));
    await r.finishAll();
    expect(r.transactions).toEqual([["a"], ["b", "c"]]);
    await expect(late).rejects.toBeInstanceOf(DeadlinePassed);
    await r.finishAll();
    expect(await Promise.all([first, ...others])).toEqual(["a", "b", "c"]);
  });

  it("lets the others commit without a member that writes nothing or whose work fails", async () => {
    const committed: string[] = [];
    const transact: Transact = async (members) => {
      for (const m of members) m.read.resolve(EMPTY_READ);
      const reports = await Promise.all(members.map((m) => m.report.promise));
      reports.forEach((w, i) => w !== null && committed.push(members[i]!.args.name));
      for (const m of members) m.committed.resolve();
    };
    const batcher = new DecisionBatcher(transact, 1, new LockShare(1_000));
    const results = await Promise.allSettled([
      batcher.run(farDeadline(), async (s) => void (await s.write((await s.read(args("w", [1])), { w: 1 })))),
      batcher.run(farDeadline(), async (s) => void (await s.read(args("refused", [2])))),
      batcher.run(farDeadline(), async (s) => {
        await s.read(args("throws", [3]));
        throw new Error("evaluation failed");
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
    expect(committed).toEqual(["w"]);
  });

  it("admits members within the room the process's lock share has left; the next waits for the next transaction", async () => {
    // A share of 10 lock ids: a member takes its name's lock and one per group.
    const r = recordingBatcher(2, () => false, 10);
    const first = r.decide(args("a", [1])); // 2 lock ids, at once: room 8
    await tick();
    const waiting = ["b", "c", "d", "e"].map((n, i) => r.decide(args(n, groups(10 * (i + 1), 3)))); // 4 lock ids each
    await tick(); // four wait beside a: b and c fit the 8 left, d and e wait
    expect(r.transactions).toEqual([["a"], ["b", "c"]]);
    expect(r.share.room()).toBe(0);
    await r.finishAll();
    expect(r.transactions).toEqual([["a"], ["b", "c"], ["d", "e"]]);
    await r.finishAll();
    expect(await Promise.all([first, ...waiting])).toEqual(["a", "b", "c", "d", "e"]);
    expect(r.share.room()).toBe(10);
  });

  it("with no room left, holds the next transaction (the first queued member) in the share's queue, before any connection", async () => {
    const r = recordingBatcher(2, () => false, 6);
    const first = r.decide(args("a", groups(1, 5))); // 6 lock ids: the whole share
    await tick();
    const waiting = ["b", "c", "d", "e"].map((n, i) => r.decide(args(n, [10 + i]))); // 2 each
    await tick();
    expect(r.transactions).toEqual([["a"]]); // b's transaction waits for room: nothing reached transact
    await r.finishAll(); // a's 6 back: b has 2 of them and checks out its connection
    expect(r.transactions).toEqual([["a"], ["b"]]);
    await r.finishAll(); // three wait, none under way: one transaction takes them
    expect(r.transactions).toEqual([["a"], ["b"], ["c", "d", "e"]]);
    await r.finishAll();
    expect(await Promise.all([first, ...waiting])).toEqual(["a", "b", "c", "d", "e"]);
    expect(r.share.room()).toBe(6);
  });

  it("gives the lock ids back when a transaction fails, shared or alone", async () => {
    const r = recordingBatcher(1, (members) => members.length > 1 || members[0]!.args.name === "bad", 20);
    const first = r.decide(args("a", [1]));
    await tick();
    const waiting = Promise.allSettled([r.decide(args("bad", [2])), r.decide(args("b", [3]))]);
    await tick();
    await r.finishAll(); // a commits; bad and b share the next, which fails
    await r.finishAll(); // each alone: bad fails, b commits
    await r.finishAll();
    await first;
    expect((await waiting).map((x) => x.status)).toEqual(["rejected", "fulfilled"]);
    expect(r.transactions).toEqual([["a"], ["bad", "b"], ["bad"], ["b"]]);
    expect(r.share.room()).toBe(20);
  });

  it("a decision whose deadline passes while its transaction waits for room leaves the share's queue", async () => {
    const r = recordingBatcher(2, () => false, 4);
    const first = r.decide(args("a", groups(1, 3))); // 4 lock ids: the whole share
    await tick();
    const deadline = farDeadline();
    const late = batcherRunWithDeadline(r, args("late", [10]), deadline);
    const others = ["x", "y", "z"].map((n, i) => r.decide(args(n, [20 + i])));
    await tick(); // four wait: late's transaction waits for room, first in the share's queue
    expect(r.transactions).toEqual([["a"]]);
    deadline.expire();
    await expect(late).rejects.toBeInstanceOf(LockShareWaitExpired);
    await r.finishAll(); // a's 4 back: x and y have them, late is not in the way
    expect(r.transactions).toEqual([["a"], ["x", "y"]]);
    await r.finishAll();
    await r.finishAll();
    expect(await Promise.all([first, ...others])).toEqual(["a", "x", "y", "z"]);
    expect(r.transactions).toEqual([["a"], ["x", "y"], ["z"]]);
    expect(r.share.room()).toBe(4);
  });

  it("counts only the name's lock of a member that evaluates nothing (its read takes no group lock)", async () => {
    const r = recordingBatcher(1, () => false, 3);
    const first = r.decide(args("a", [1]));
    await tick();
    const held = (name: string, locks: number[]) => ({ ...args(name, locks), evaluate: false });
    const waiting = [r.decide(held("b", [10, 11, 12])), r.decide(held("c", [20, 21, 22])), r.decide(held("d", [30, 31, 32]))];
    await r.finishAll();
    expect(r.transactions).toEqual([["a"], ["b", "c", "d"]]);
    await r.finishAll();
    expect(await Promise.all([first, ...waiting])).toEqual(["a", "b", "c", "d"]);
  });
});

describe("MembersGuard", () => {
  const member = (deadline: Deadline): Member => ({
    args: args(`m${Math.random()}`),
    deadline,
    keys: [],
    lockIds: 1,
    read: new Deferred(),
    report: new Deferred(),
    committed: new Deferred(),
  });

  it("until the transaction begins, expires only when every member has; begin leaves out the late ones, and only the others' deadlines count from then", async () => {
    const late = new Deadline(performance.now() - 1, 100);
    const laterLate = new Deadline(performance.now() + 60_000, 60_000);
    const onTime = new Deadline(performance.now() + 60_000, 60_000);
    const members = [member(late), member(laterLate), member(onTime)];
    const guard = new MembersGuard(members);
    let destroyed = 0;
    guard.onExpire(() => destroyed++);
    expect(guard.expired).toBe(false);
    late.expire();
    expect(destroyed).toBe(0);
    expect(guard.begin()).toEqual(members.slice(1));
    expect(guard.members).toEqual(members.slice(1));
    await expect(members[0]!.read.promise).rejects.toBeInstanceOf(DeadlinePassed);
    expect(guard.expired).toBe(false);
    late.expire(); // again: a member that left does not count
    expect(destroyed).toBe(0);
    laterLate.expire();
    expect(destroyed).toBe(1);
    expect(guard.expired).toBe(true);
    await expect(guard.expiry).rejects.toBeInstanceOf(DeadlinePassed);
    guard.close();
  });
});
