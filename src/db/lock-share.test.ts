/**
 * The process's lock share (lock-share.ts): lock ids reserved and given back, waiters granted in
 * arrival order, and a waiter whose guard expires leaving the queue.
 */
import { describe, expect, it } from "vitest";
import { Deadline } from "../decision/deadline.js";
import { LockShare, LockShareWaitExpired, type ReleaseLockIds } from "./lock-share.js";

const farDeadline = () => new Deadline(performance.now() + 60_000, 60_000);

/** Which of `reservations` have been granted so far, after their callbacks ran. */
async function granted(reservations: Record<string, Promise<ReleaseLockIds>>): Promise<string[]> {
  const done: string[] = [];
  for (const [name, p] of Object.entries(reservations))
    void p.then(
      () => done.push(name),
      () => undefined,
    );
  await new Promise((resolve) => setImmediate(resolve));
  return done.sort();
}

describe("LockShare", () => {
  it("grants what fits at once, and the room comes back on release, once", async () => {
    const share = new LockShare(10);
    const a = await share.reserve(6, farDeadline());
    expect(share.room()).toBe(4);
    const b = await share.reserve(4, farDeadline());
    expect(share.room()).toBe(0);
    a();
    a(); // a second release gives nothing back twice
    expect(share.room()).toBe(6);
    b();
    expect(share.room()).toBe(10);
  });

  it("makes a reservation that does not fit wait, and grants waiters in arrival order: none after the first, even one that fits", async () => {
    const share = new LockShare(10);
    const held = await share.reserve(6, farDeadline());
    const waiting = { big: share.reserve(8, farDeadline()), small: share.reserve(3, farDeadline()) };
    expect(await granted(waiting)).toEqual([]); // small would fit the 4 left, but big came first
    expect(share.room()).toBe(0);
    held();
    expect(await granted(waiting)).toEqual(["big"]); // 8 of 10: small (3) waits for big
    (await waiting.big)();
    expect(await granted(waiting)).toEqual(["big", "small"]);
    (await waiting.small)();
    expect(share.room()).toBe(10);
  });

  it("takes a waiter whose guard expires out of the queue, rejected, and moves those behind it up", async () => {
    const share = new LockShare(10);
    const held = await share.reserve(6, farDeadline());
    const deadline = farDeadline();
    const waiting = { late: share.reserve(8, deadline), next: share.reserve(4, farDeadline()) };
    expect(await granted(waiting)).toEqual([]);
    deadline.expire();
    await expect(waiting.late).rejects.toBeInstanceOf(LockShareWaitExpired);
    expect(await granted(waiting)).toEqual(["next"]); // 4 fit beside the 6 held
    held();
    (await waiting.next)();
    expect(share.room()).toBe(10);
  });

  it("refuses at once a reservation past its guard's expiry, or larger than the whole share", async () => {
    const share = new LockShare(10);
    const expired = farDeadline();
    expired.expire();
    await expect(share.reserve(1, expired)).rejects.toBeInstanceOf(LockShareWaitExpired);
    await expect(share.reserve(11, farDeadline())).rejects.toThrow("cannot fit a share of 10");
    expect(share.room()).toBe(10);
  });
});
