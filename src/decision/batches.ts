/**
 * Group commit for decisions. Under load, deliveries that wait for the database go together: one
 * transaction, in the two round trips a decision alone takes (session.ts), decides all of them.
 * Postgres then pays one begin, one commit, one durable flush and two round trips for several
 * decisions: replayed by pgbench on a durable server, four decisions per transaction ran at 1.66
 * times the rate of one per transaction (README, "What a decision costs").
 *
 * - At most `maxShared` shared transactions are under way at once. A delivery that finds none under
 *   way starts one at once (no added wait when the service is quiet); the others queue. Beside one
 *   under way, the next starts only once MIN_MEMBERS_BESIDE deliveries wait. Each takes every
 *   queued delivery that it can (up to MAX_MEMBERS, and within the room in the lock share below).
 * - A transaction holds every member's locks until it ends, and they come out of the lock table
 *   every session of the cluster shares. Every transaction, shared or alone, reserves its members'
 *   lock ids in the process's lock share (src/db/lock-share.ts) before it checks out a connection,
 *   waiting its turn when they do not fit, and gives them back when it ends. A shared transaction
 *   admits members while their lock ids fit the room left; one that does not fit waits for the next
 *   transaction, as one beyond MAX_MEMBERS does. When there is no room, the next transaction takes
 *   the first queued member alone and waits in the share's queue, so that queued deliveries keep
 *   their turn against those that go alone. (decide.ts defers a decision whose lock ids exceed the
 *   whole share before it gets here: it reads taking only its name's lock.)
 * - Members never share a transaction name or a window group with each other, nor with a delivery
 *   whose transaction is under way: a delivery that would goes alone, in a transaction of its own
 *   outside the limit, and waits in Postgres for the lock as every decision did before batching.
 *   So a hot wallet's deliveries queue on its group's lock and hold no shared transaction's members
 *   hostage, and two members of one transaction can never both spend the same room (the server
 *   refuses such a batch too: migrations/sql/functions/decision-session.sql).
 * - The shared read never waits for a lock: a member one of whose locks is held elsewhere (another
 *   replica, a void, a reviewer's action) is busy (MemberBusy) and goes alone, to wait for it
 *   there; the others do not wait with it.
 * - Members share a fate: the transaction commits every member's write or none. When it fails
 *   (one member's write, a member's deadline destroying the connection, the server), each other
 *   member decides again alone, from the read, if its own deadline allows; a member alone that
 *   fails is unavailable (503), as before. So no delivery can make another's answer a 503 by
 *   failing. Deciding again is safe whether or not the failed COMMIT took effect: the name's lock
 *   and its final decision make a committed decision come back as a repeat.
 * - A member whose deadline passed while it waited (in the queue, or for a pooled connection) has
 *   answered 503 and sent nothing: it leaves as the transaction begins (MembersGuard.begin), rather
 *   than fail the transaction, and every other member with it, at the checkout.
 * - A member that never reaches the database (refused before any write) or whose work fails
 *   withdraws: the others commit without it.
 */
import type { CheckoutGuard } from "../db/checkout-guard.js";
import type { LockShare, ReleaseLockIds } from "../db/lock-share.js";
import { DeadlinePassed, type Deadline } from "./deadline.js";
import type { DecisionSession, ReadArgs, ReadResult } from "./session-types.js";

/** At most this many deliveries in one shared transaction (the read's and the write's arguments grow with each). */
export const MAX_MEMBERS = 32;

/**
 * While a shared transaction is under way, the next one starts only once it can take at least
 * this many deliveries. Started whenever one was free, a transaction mostly took the one delivery
 * that happened to be waiting (a third of all decisions went so, alone), because those just
 * answered had not come back yet; waiting for four made 16 connections decide at 1,734 to 1,919
 * decisions/s against 1,339 to 1,712 (README, "What a decision costs"). When none is under way a
 * delivery starts at once, so a quiet service adds no wait; a busy one waits at most for a
 * transaction under way to end.
 */
export const MIN_MEMBERS_BESIDE = 4;

/** One delivery's part in a transaction. */
export interface Member {
  readonly args: ReadArgs;
  readonly deadline: Deadline;
  /** Its transaction name and lock ids, as conflict keys. */
  readonly keys: readonly string[];
  /** How many advisory locks its read takes: its name's, and its groups' when it evaluates. */
  readonly lockIds: number;
  readonly read: Deferred<ReadResult>;
  /** What it writes (the write's argument), or null: it writes nothing. */
  readonly report: Deferred<Record<string, unknown> | null>;
  readonly committed: Deferred<void>;
}

/** Runs one transaction for `members` (session.ts), settling each member's promises. */
export type Transact = (members: readonly Member[], guard: MembersGuard) => Promise<void>;

/** A shared transaction failed for a reason that may not be this member's own. */
export class SharedTransactionFailed extends Error {
  constructor(cause: unknown) {
    super("a transaction shared with other decisions failed", { cause });
    this.name = "SharedTransactionFailed";
  }
}

/**
 * A member whose name or window-group lock another transaction held when its shared transaction
 * read (another replica, a void, a reviewer's action): it read nothing there and decides alone,
 * waiting for its lock as a decision alone does, so that its wait is no other member's.
 */
export class MemberBusy extends SharedTransactionFailed {
  constructor() {
    super(new Error("a lock of this decision was held elsewhere when its shared transaction read"));
    this.name = "MemberBusy";
  }
}

export class DecisionBatcher {
  private queue: Member[] = [];
  private shared = 0;
  /** Conflict keys of the members whose transaction is under way, counted. */
  private readonly held = new Map<string, number>();

  /** `lockShare`: the process's lock ids, which every transaction reserves before it checks out a connection. */
  constructor(
    private readonly transact: Transact,
    private readonly maxShared: number,
    private readonly lockShare: LockShare,
  ) {}

  /** Runs a decision's `work` in a transaction, shared when others wait too; alone once more if a shared one fails. */
  async run<T>(deadline: Deadline, work: (session: DecisionSession) => Promise<T>): Promise<T> {
    try {
      return await this.attempt(deadline, work, false);
    } catch (error) {
      if (!(error instanceof SharedTransactionFailed) || deadline.expired) throw error;
      return this.attempt(deadline, work, true);
    }
  }

  private async attempt<T>(deadline: Deadline, work: (session: DecisionSession) => Promise<T>, alone: boolean): Promise<T> {
    let member: Member | null = null;
    const session: DecisionSession = {
      read: (args) => {
        deadline.check();
        if (member) throw new Error("a decision reads once per transaction");
        member = newMember(args, deadline);
        this.enqueue(member, alone);
        return member.read.promise;
      },
      write: (args) => {
        deadline.check();
        if (!member || member.report.settled) throw new Error("a decision writes once, after its read");
        member.report.resolve(args);
        return member.committed.promise;
      },
    };
    try {
      return await work(session);
    } finally {
      // Nothing written (refused before any write, or its work failed): the others go on without it.
      (member as Member | null)?.report.resolve(null);
    }
  }

  private enqueue(member: Member, alone: boolean): void {
    if (alone) this.start([member], false);
    else {
      this.queue.push(member);
      this.pump();
    }
  }

  /** Starts shared transactions while there is room, each with every queued member it can take. */
  private pump(): void {
    while (this.queue.length > 0 && this.shared < this.maxShared && (this.shared === 0 || this.queue.length >= MIN_MEMBERS_BESIDE)) {
      const members: Member[] = [];
      const room = this.lockShare.room();
      let lockIds = 0;
      const taken = new Set<string>();
      const alone: Member[] = [];
      const waiting: Member[] = [];
      for (const m of this.queue) {
        // Answered 503 at its deadline while it waited: in a transaction it would only fail the others.
        if (m.deadline.expired) m.read.reject(new DeadlinePassed(m.deadline.budgetMs));
        else if (m.keys.some((k) => taken.has(k) || this.held.has(k))) alone.push(m);
        else if (members.length === 0 || (members.length < MAX_MEMBERS && lockIds + m.lockIds <= room)) {
          members.push(m);
          lockIds += m.lockIds;
          for (const k of m.keys) taken.add(k);
        } else waiting.push(m);
      }
      this.queue = waiting;
      // The shared transaction first, so that it asks for its locks before those that wait on them.
      if (members.length > 0) this.start(members, true);
      for (const m of alone) this.start([m], false);
    }
  }

  private start(members: Member[], counted: boolean): void {
    if (counted) this.shared++;
    for (const m of members) for (const k of m.keys) this.held.set(k, (this.held.get(k) ?? 0) + 1);
    void this.settle(members).finally(() => {
      if (counted) this.shared--;
      for (const m of members) {
        for (const k of m.keys) {
          const n = this.held.get(k)! - 1;
          if (n === 0) this.held.delete(k);
          else this.held.set(k, n);
        }
      }
      this.pump();
    });
  }

  private async settle(members: Member[]): Promise<void> {
    const guard = new MembersGuard(members);
    let release: ReleaseLockIds = () => undefined;
    try {
      release = await this.lockShare.reserve(lockIdsOf(members), guard);
      await this.transact(members, guard);
    } catch (error) {
      // Shared if more than one member was still in it (guard.begin left out those whose deadline had passed).
      const failure = guard.members.length > 1 ? new SharedTransactionFailed(error) : error;
      for (const m of members) {
        m.read.reject(failure);
        m.committed.reject(failure);
      }
    } finally {
      release();
      guard.close();
    }
  }
}

const lockIdsOf = (members: readonly Member[]) => members.reduce((n, m) => n + m.lockIds, 0);

function newMember(args: ReadArgs, deadline: Deadline): Member {
  const locks = args.locks.replace(/^\{|\}$/g, "");
  const ids = locks === "" ? [] : locks.split(",");
  const keys = [`name:${args.name}`, ...ids.map((id) => `lock:${id}`)];
  // The read takes the group locks only when it evaluates (countersign_decision_read_batch).
  const lockIds = 1 + (args.evaluate ? ids.length : 0);
  return { args, deadline, keys, lockIds, read: new Deferred(), report: new Deferred(), committed: new Deferred() };
}

/**
 * The members' deadlines as one checkout guard (checkout-guard.ts). Until the transaction begins
 * (`begin`), it is expired only when every member's deadline is: a member whose deadline passes
 * while it waits for a free transaction or a pooled connection has answered 503 and nothing of it
 * was sent, so `begin` leaves it out rather than fail the others with it. From `begin`, it is
 * expired when any remaining member's deadline is, which destroys the shared connection so that
 * nothing commits after a member answered 503.
 */
export class MembersGuard implements CheckoutGuard {
  private passed = false;
  private began = false;
  private live: readonly Member[];
  private readonly destroyers = new Set<() => void>();
  private readonly unregister: (() => void)[];
  /** Rejects at the first remaining member's expiry once begun: a transaction waiting on its members stops waiting. */
  readonly expiry: Promise<never>;
  private fail!: (error: Error) => void;

  constructor(private readonly all: readonly Member[]) {
    this.live = all;
    this.expiry = new Promise<never>((_resolve, reject) => (this.fail = reject));
    this.expiry.catch(() => undefined);
    this.unregister = all.map((m) => m.deadline.onExpire(() => this.memberExpired(m)));
  }

  /** The members in the transaction: all of them until it begins, then those `begin` kept. */
  get members(): readonly Member[] {
    return this.live;
  }

  /**
   * The transaction begins: members whose deadline has passed leave it (their read fails with
   * DeadlinePassed; they answered 503 already). Returns the members that remain.
   */
  begin(): readonly Member[] {
    const live: Member[] = [];
    for (const m of this.all) {
      if (m.deadline.expired) m.read.reject(new DeadlinePassed(m.deadline.budgetMs));
      else live.push(m);
    }
    this.live = live;
    this.began = true;
    return live;
  }

  get expired(): boolean {
    if (this.passed) return true;
    return this.began ? this.live.some((m) => m.deadline.expired) : this.live.every((m) => m.deadline.expired);
  }

  /** The least time any remaining member has left, in whole milliseconds. */
  remainingMs(): number {
    return Math.min(...this.live.map((m) => m.deadline.remainingMs()));
  }

  check(): void {
    if (!this.expired) return;
    this.expire();
    throw new DeadlinePassed(this.leastBudgetMs());
  }

  onExpire(destroy: () => void): () => void {
    if (this.passed) {
      destroy();
      return () => undefined;
    }
    this.destroyers.add(destroy);
    return () => this.destroyers.delete(destroy);
  }

  close(): void {
    for (const unregister of this.unregister) unregister();
  }

  private memberExpired(m: Member): void {
    if (this.began ? this.live.includes(m) : this.live.every((x) => x.deadline.expired)) this.expire();
  }

  private leastBudgetMs(): number {
    return Math.min(...this.all.map((m) => m.deadline.budgetMs));
  }

  private expire(): void {
    if (this.passed) return;
    this.passed = true;
    for (const destroy of [...this.destroyers]) destroy();
    this.destroyers.clear();
    this.fail(new DeadlinePassed(this.leastBudgetMs()));
  }
}

/** A promise settled from outside, once; a rejection nobody awaits is not an unhandled one. */
export class Deferred<T> {
  readonly promise: Promise<T>;
  settled = false;
  private resolveFn!: (value: T) => void;
  private rejectFn!: (error: unknown) => void;

  constructor() {
    this.promise = new Promise<T>((resolve, reject) => {
      this.resolveFn = resolve;
      this.rejectFn = reject;
    });
    this.promise.catch(() => undefined);
  }

  resolve(value: T): void {
    if (this.settled) return;
    this.settled = true;
    this.resolveFn(value);
  }

  reject(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.rejectFn(error);
  }
}
