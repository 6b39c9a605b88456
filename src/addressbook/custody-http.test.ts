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
  it("makes no retry whose back-off would end past the deadline, and gives up with the last failure", async () => {
    const pauses: { ms: number; endsBy: number }[] = [];
    const sleep = async (ms: number) => {
      pauses.push({ ms, endsBy: performance.now() + ms });
      await new Promise((resolve) => setTimeout(resolve, ms));
    };
    const get = createCustodyGet({
      baseUrl: "http://127.0.0.1:1",
      tokens,
      fetch: unavailable,
      sleep,
      random: () => 0,
      retry: { maxAttempts: 20, baseDelayMs: 40, maxDelayMs: 400 },
    });
    const until = performance.now() + 200;
    const answer = await get(target(until));
    expect(answer).toMatchObject({ ok: false, error: { code: "UNAVAILABLE" } });
    if (answer.ok) return;
    expect(answer.error.attempts).toBeLessThan(20);
    expect(answer.error.attempts).toBe(pauses.length + 1);
    for (const pause of pauses) expect(pause.endsBy).toBeLessThan(until);
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
