import { describe, expect, it } from "vitest";
import { createCustodyGet } from "./custody-http.js";
import type { ServiceAccountTokenSource } from "./service-account-token.js";

const tokens: ServiceAccountTokenSource = { token: async () => "token", invalidate: () => undefined };
const unavailable: typeof fetch = async () => new Response(JSON.stringify({ code: 14, message: "unavailable" }), { status: 503 });
const target = (until?: number) => ({
  operation: "GetTransaction" as const,
  vault: "vaults/v1",
  path: "/v2/vaults/v1/transactions/t1",
  query: new URLSearchParams(),
  ...(until === undefined ? {} : { until }),
});

describe("a custody API read bounded by a deadline (until)", () => {
  /** A clock the test moves: a back-off's pause moves it by the pause, plus `late` ms, as a busy machine wakes a timer late. */
  const clockAndSleep = (late = 0) => {
    let clock = 1_000;
    const pauses: { ms: number; endsBy: number }[] = [];
    const sleep = async (ms: number) => {
      pauses.push({ ms, endsBy: clock + ms });
      clock += ms + late;
    };
    return { now: () => clock, sleep, pauses };
  };
  const retrying = (time: ReturnType<typeof clockAndSleep>) =>
    createCustodyGet({
      baseUrl: "http://127.0.0.1:1",
      tokens,
      fetch: unavailable,
      sleep: time.sleep,
      now: time.now,
      random: () => 0,
      retry: { maxAttempts: 20, baseDelayMs: 40, maxDelayMs: 400 },
    });

  it("makes no retry whose back-off would end past the deadline, and gives up with the last failure", async () => {
    const time = clockAndSleep();
    const until = time.now() + 200;
    const answer = await retrying(time)(target(until));
    expect(answer).toMatchObject({ ok: false, error: { code: "UNAVAILABLE" } });
    if (answer.ok) return;
    expect(answer.error.attempts).toBeLessThan(20);
    expect(answer.error.attempts).toBe(time.pauses.length + 1);
    for (const pause of time.pauses) expect(pause.endsBy).toBeLessThan(until);
  });

  it("gives up with the last failure, starting no attempt, when a back-off ends past the deadline (a timer woken late)", async () => {
    let calls = 0;
    const time = clockAndSleep(500);
    const counted: typeof fetch = async (...args) => {
      calls++;
      return unavailable(...args);
    };
    const get = createCustodyGet({
      baseUrl: "http://127.0.0.1:1",
      tokens,
      fetch: counted,
      sleep: time.sleep,
      now: time.now,
      random: () => 0,
      retry: { maxAttempts: 20, baseDelayMs: 40 },
    });
    const answer = await get(target(time.now() + 200));
    expect(answer).toMatchObject({ ok: false, error: { code: "UNAVAILABLE", attempts: 1 } });
    expect(calls).toBe(1);
  });

  it("does not start an attempt once the deadline has passed", async () => {
    let calls = 0;
    const counted: typeof fetch = async (...args) => {
      calls++;
      return unavailable(...args);
    };
    const get = createCustodyGet({ baseUrl: "http://127.0.0.1:1", tokens, fetch: counted });
    expect(await get(target(performance.now() - 1))).toMatchObject({ ok: false, error: { code: "TIMEOUT" } });
    expect(calls).toBe(0);
  });

  it("cuts an attempt's timeout to the deadline", async () => {
    const stalled: typeof fetch = (_url, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason as Error)));
    const get = createCustodyGet({ baseUrl: "http://127.0.0.1:1", tokens, fetch: stalled, timeoutMs: 20_000, retry: { maxAttempts: 1 } });
    const answer = await get(target(performance.now() + 50));
    expect(answer).toMatchObject({ ok: false, error: { code: "TIMEOUT" } });
    // The attempt's own timeout is named in the failure: the deadline's remainder, not the 20 s.
    expect(answer.ok ? "" : answer.error.detail).not.toContain("20000 ms");
  });
});
