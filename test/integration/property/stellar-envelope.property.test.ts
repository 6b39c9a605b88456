/**
 * The Stellar envelope is the truth, as a property: for generated operation lists, a body
 * whose decoded operations say what its signed envelope holds is read exactly as without the
 * envelope, and a body whose decoded operations differ in any way — an amount, a destination, an
 * asset, a dropped, added or reordered operation — is refused with 400; with none decoded, the
 * envelope's are read. Envelopes are real, built with the network's library (left unsigned: the
 * signatures change nothing that is read).
 */
import { Asset, Operation, type xdr } from "@stellar/stellar-base";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseTransaction } from "../../../src/core/transaction/parse.js";
import { STELLAR_USDC } from "../../../src/core/transaction/test-bodies.js";
import { apiEnvelopeBody, DEST, decodedPayment, envelope, OTHER, payment, SENDER, SPONSOR, USDC } from "../../../src/core/transaction/test-envelopes.js";
import { check, counted, PROPERTY_TEST_TIMEOUT_MS } from "../../support/property/run.js";

const RUNS = 2_000;
const DESTINATIONS = [DEST, OTHER, SPONSOR] as const;
const destination = (to: number): string => DESTINATIONS[to % DESTINATIONS.length]!;
const ASSETS = { usdc: USDC, native: Asset.native(), otherIssuer: new Asset("USDC", OTHER) } as const;
type AssetKey = keyof typeof ASSETS;

type Op =
  | { kind: "payment"; stroops: string; to: number; asset: AssetKey }
  | { kind: "changeTrust" }
  /** Operations countersign does not model: both are `stellar:unknown`, as an undecoded operation is. */
  | { kind: "setOptions" }
  | { kind: "accountMerge"; to: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("payment" as const),
      stroops: fc.bigInt(1n, 10n ** 15n).map(String),
      to: fc.integer({ min: 0, max: 2 }),
      asset: fc.constantFrom<AssetKey>("usdc", "native", "otherIssuer"),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "changeTrust" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "setOptions" as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("accountMerge" as const), to: fc.integer({ min: 0, max: 2 }) }) },
);

/** The decoded list: the envelope's operations, or one change to them. */
type Change =
  | { what: "none" }
  | { what: "amount"; at: number; delta: string }
  | { what: "destination"; at: number }
  | { what: "asset"; at: number }
  | { what: "drop"; at: number }
  | { what: "add"; op: Op }
  | { what: "swap"; at: number };
const change: fc.Arbitrary<Change> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ what: "none" as const }) },
  fc.record({
    what: fc.constant("amount" as const),
    at: fc.nat(),
    delta: fc
      .bigInt(-(10n ** 12n), 10n ** 12n)
      .filter((d) => d !== 0n)
      .map(String),
  }),
  fc.record({ what: fc.constant("destination" as const), at: fc.nat() }),
  fc.record({ what: fc.constant("asset" as const), at: fc.nat() }),
  fc.record({ what: fc.constant("drop" as const), at: fc.nat() }),
  fc.record({ what: fc.constant("add" as const), op }),
  fc.record({ what: fc.constant("swap" as const), at: fc.nat() }),
);

function changed(ops: Op[], c: Change): Op[] {
  const out = [...ops];
  const i = "at" in c ? c.at % ops.length : 0;
  const target = out[i]!;
  switch (c.what) {
    case "none":
      return out;
    case "amount":
      if (target.kind === "payment" && BigInt(target.stroops) + BigInt(c.delta) > 0n) out[i] = { ...target, stroops: String(BigInt(target.stroops) + BigInt(c.delta)) };
      return out;
    case "destination":
      if (target.kind === "payment" || target.kind === "accountMerge") out[i] = { ...target, to: (target.to + 1) % DESTINATIONS.length };
      return out;
    case "asset":
      if (target.kind === "payment") out[i] = { ...target, asset: target.asset === "usdc" ? "native" : "usdc" };
      return out;
    case "drop":
      out.splice(i, 1);
      return out;
    case "add":
      return [...out, c.op];
    case "swap":
      if (ops.length > 1) [out[i], out[(i + 1) % ops.length]] = [out[(i + 1) % ops.length]!, target];
      return out;
  }
}

const signed = (o: Op): xdr.Operation => {
  switch (o.kind) {
    case "payment":
      return payment(o.stroops, destination(o.to), ASSETS[o.asset]);
    case "changeTrust":
      return Operation.changeTrust({ source: SENDER, asset: USDC });
    case "setOptions":
      return Operation.setOptions({ source: SENDER, signer: { ed25519PublicKey: OTHER, weight: 1 } });
    case "accountMerge":
      return Operation.accountMerge({ source: SENDER, destination: destination(o.to) });
  }
};

const ASSET_NAMES: Record<AssetKey, string> = { usdc: STELLAR_USDC, native: "native", otherIssuer: `USDC-${OTHER}` };
const decodedOp = (o: Op): Record<string, unknown> =>
  o.kind === "payment" ? decodedPayment(o.stroops, destination(o.to), ASSET_NAMES[o.asset]) : o.kind === "changeTrust" ? { changeTrust: {} } : {};

/** What the decoded list can say of an operation: the platform decodes neither setOptions nor accountMerge. */
const meaning = (o: Op): unknown => (o.kind === "setOptions" || o.kind === "accountMerge" ? "unknown" : o);

describe("the Stellar envelope is the truth", { timeout: PROPERTY_TEST_TIMEOUT_MS }, () => {
  it(counted("decoded operations that say what the envelope holds are read as without it; any other is a 400", RUNS), () => {
    const arbitrary = fc.record({ ops: fc.array(op, { minLength: 1, maxLength: 4 }), change, feeBump: fc.boolean() });
    check(
      arbitrary,
      ({ ops, change: c, feeBump }) => {
        const list = changed(ops, c);
        const body = apiEnvelopeBody(list.map(decodedOp), envelope(ops.map(signed), { feeBump, unsigned: true }));
        const result = parseTransaction(body);
        // No decoded operations at all: the envelope's are read.
        const agrees = list.length === 0 || JSON.stringify(list.map(meaning)) === JSON.stringify(ops.map(meaning));
        if (!agrees) {
          expect(result.ok ? "read" : result.error.publicMessage).toMatch(/^stellarTransaction\.rawXdrEnvelope: /);
          return;
        }
        // Read as the body that decodes every operation and carries no envelope.
        const { rawXdrEnvelope: _raw, ...decodedOnly } = apiEnvelopeBody(ops.map(decodedOp), "").stellarTransaction as Record<string, unknown>;
        const plain = parseTransaction({ ...body, stellarTransaction: decodedOnly });
        expect(result.ok && plain.ok).toBe(true);
        if (!result.ok || !plain.ok) return;
        // The fee aside: the envelope states the one it signs, the decoded body none.
        expect({ ...result.value, snapshot: null, fee: null }).toEqual({ ...plain.value, snapshot: null, fee: null });
        expect(result.value.fee?.asset).toBe("assets/native.stellar-mainnet");
        expect(result.value.kind).toBe(ops.every((o) => o.kind === "payment") ? "stellarTransaction" : "unknown");
      },
      RUNS,
    );
  });
});
