/**
 * Velocity windows against a simple oracle, through the real service: random sequences of
 * deliveries (new transactions of one to three transfers, repeats), the platform's state events
 * (voiding, CONFIRMED, DROPPED) and clock steps (onto and just past window edges, and backwards),
 * for one wallet per run. After every answer:
 *
 * - safety: for each amount window, the transactions signed and not reported failed (the money
 *   that may have left) within any span of the window's length sum to at most its limit, and the
 *   count window likewise;
 * - exactness: the answer is the one a model of docs/interface.md sections 1 and 2 gives (a denial where
 *   the model allows would be failing closed, but it means the ledger and the model disagree).
 */
import Big from "big.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assetTransfer, ETH, transactionName, VAULT } from "../../support/bodies.js";
import { postDelivery, signedDelivery } from "../../support/event-sender.js";
import { serviceWithEvents } from "../../support/events-service.js";
import { stateUpdated } from "../../support/events/harness.js";
import { SEED } from "../../support/property/run.js";

/** Each run is a few dozen deliveries through the service: a few dozen runs (COUNTERSIGN_VELOCITY_PROPERTY_RUNS raises it). */
const RUNS = Number(process.env.COUNTERSIGN_VELOCITY_PROPERTY_RUNS ?? 40);

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const SHORT = { name: "short_out", ms: HOUR, limit: new Big("10") };
const LONG = { name: "long_out", ms: 24 * HOUR, limit: new Big("30") };
const COUNT = { name: "hourly_count", ms: HOUR, limit: 4 };

const POLICY = `
version: "velocity-windows-property.1"
default: deny
windows:
  - {name: ${SHORT.name}, duration: 1h, groupBy: [sourceWallet, asset], measure: amount}
  - {name: ${LONG.name}, duration: 24h, groupBy: [sourceWallet, asset], measure: amount}
  - {name: ${COUNT.name}, duration: 1h, groupBy: [sourceWallet], measure: count}
rules:
  - {id: short-limit, decision: deny, reason: short, when: {">": [{"var": "velocity.${SHORT.name}.amountAfter"}, "${SHORT.limit.toString()}"]}}
  - {id: long-limit, decision: deny, reason: long, when: {">": [{"var": "velocity.${LONG.name}.amountAfter"}, "${LONG.limit.toString()}"]}}
  - {id: count-limit, decision: deny, reason: count, when: {">": [{"var": "velocity.${COUNT.name}.countAfter"}, ${COUNT.limit}]}}
  - {id: internal, decision: allow, when: {"var": "transfer.destination.internal"}}
`;

const VOIDING = ["CANCELED", "FAILED", "DECLINED", "DECLINED_BY_AML_POLICY"] as const;
const FAILED = [...VOIDING, "DROPPED", "EXPIRED", "REPLACED"] as const;

type Step = { kind: "tick"; ms: number } | { kind: "new"; amounts: string[] } | { kind: "again"; pick: number } | { kind: "event"; pick: number; state: string };

const amount = fc.constantFrom("0.001", "0.5", "1", "2.5", "3", "4.999", "5", "7.25", "9.999", "10");
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("tick" as const),
      ms: fc.oneof(
        // Onto a window's edge, a millisecond either side of it, and anywhere.
        fc.constantFrom(1, 999, MINUTE - 1, MINUTE, HOUR - 1, HOUR, HOUR + 1, 24 * HOUR - 1, 24 * HOUR, 24 * HOUR + 1, 23 * HOUR, -5 * MINUTE),
        fc.integer({ min: 1, max: 3 * HOUR }),
      ),
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("new" as const), amounts: fc.array(amount, { minLength: 1, maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("again" as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("event" as const), pick: fc.nat(), state: fc.constantFrom(...FAILED, "CONFIRMED", "CONFIRMED") }) },
);

/** What the model knows of one transaction. */
interface Known {
  name: string;
  body: unknown;
  sum: Big;
  transfers: number;
  /** allow / deny once decided (final), with the time the allow was charged at. */
  final: { decision: "allow" | "deny"; at: number } | null;
  failedReported: boolean;
  confirmed: boolean;
  voided: boolean;
}

function batch(name: string, source: string, amounts: string[]) {
  if (amounts.length === 1) return assetTransfer({ name, amount: amounts[0]!, source, asset: ETH });
  return {
    name,
    state: "AWAITING_SIGNATURE",
    designatedSigners: ["users/policy-bot@treasury.example"],
    details: { assetBatchTransfer: { asset: ETH, source, destinations: amounts.map((a, i) => ({ destination: `${VAULT}/wallets/cold${i}`, amount: a })) } },
  };
}

describe("velocity windows, property: never more than a window's limit signed in any span of its length", () => {
  const START = Date.parse("2026-11-21T12:34:56.789Z");
  let clockMs = START;
  const suite = serviceWithEvents(POLICY, { clock: () => new Date(clockMs) });
  let run = 0;

  it("holds for random deliveries, events and clock steps, and answers as the model does", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 30 }), async (steps) => {
        // A wallet of its own: runs do not see each other's charges, whatever their clocks.
        const source = `${VAULT}/wallets/prop${++run}w${Date.now()}`;
        clockMs = START;
        const known: Known[] = [];
        const live = () => known.filter((k) => k.final?.decision === "allow" && !k.voided);
        const url = `${suite.service.url}/v1/events`;
        for (const s of steps) {
          if (s.kind === "tick") {
            clockMs += s.ms;
          } else if (s.kind === "event") {
            const k = known[s.pick % Math.max(1, known.length)];
            if (!k) continue;
            expect((await postDelivery(url, await signedDelivery(stateUpdated(k.name, s.state)))).status).toBe(200);
            if (s.state === "CONFIRMED") {
              k.confirmed = true;
              k.voided = false;
            } else {
              k.failedReported = true;
              if ((VOIDING as readonly string[]).includes(s.state) && !k.confirmed) k.voided = k.final?.decision === "allow";
            }
          } else {
            const k: Known | undefined = s.kind === "again" ? known[s.pick % Math.max(1, known.length)] : undefined;
            if (s.kind === "again" && !k) continue;
            const target: Known =
              k ??
              (() => {
                const name = transactionName("prop");
                const amounts = (s as { amounts: string[] }).amounts;
                const fresh: Known = {
                  name,
                  body: batch(name, source, amounts),
                  sum: amounts.reduce((a, b) => a.plus(b), new Big(0)),
                  transfers: amounts.length,
                  final: null,
                  failedReported: false,
                  confirmed: false,
                  voided: false,
                };
                known.push(fresh);
                return fresh;
              })();
            const expected = modelAnswer(target, live(), clockMs);
            const delivery = await suite.cosigner.deliver(target.body);
            const signed = delivery.verdict === "signed";
            expect({ signed, answer: delivery.body, step: s, at: new Date(clockMs).toISOString() }).toMatchObject({ signed: expected, step: s });
            if (target.final === null) target.final = { decision: signed ? "allow" : "deny", at: clockMs };
            if (signed) expectWithinLimits(live(), clockMs);
          }
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 240_000);
});

/** The model's answer: repeats as decided (a voided allow denied), else the windows as docs/interface.md section 2 reads them. */
function modelAnswer(k: Known, live: Known[], now: number): boolean {
  if (k.final !== null) return k.final.decision === "allow" && !k.voided;
  if (k.failedReported) return false;
  // No upper edge: a charge stamped after now counts (the clock may have stepped back).
  const inWindow = (ms: number) => live.filter((c) => c.final!.at > now - ms);
  const amountAfter = (ms: number) =>
    inWindow(ms)
      .reduce((a, c) => a.plus(c.sum), new Big(0))
      .plus(k.sum);
  if (amountAfter(SHORT.ms).gt(SHORT.limit) || amountAfter(LONG.ms).gt(LONG.limit)) return false;
  return inWindow(COUNT.ms).reduce((n, c) => n + c.transfers, 0) + k.transfers <= COUNT.limit;
}

/** Every span of a window's length ending at a signature holds at most the window's limit. */
function expectWithinLimits(live: Known[], now: number): void {
  const span = (ms: number) => live.filter((c) => c.final!.at > now - ms && c.final!.at <= now);
  for (const w of [SHORT, LONG]) {
    const total = span(w.ms).reduce((a, c) => a.plus(c.sum), new Big(0));
    expect(total.lte(w.limit), `${w.name}: ${total.toFixed()} signed in a span of its length`).toBe(true);
  }
  expect(span(COUNT.ms).reduce((n, c) => n + c.transfers, 0)).toBeLessThanOrEqual(COUNT.limit);
}
