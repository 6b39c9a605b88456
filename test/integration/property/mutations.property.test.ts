/**
 * Properties over mutations of valid bodies, in process through the webhook's own functions:
 * never a crash, signed only what the oracle allows (support/oracle.ts), and a redelivery that
 * changes anything that moves value is never taken for the decided transaction (content digest).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contentDigest } from "../../../src/core/transaction/content-digest.js";
import { payload, plainApiEvm, plainReference, plainStellarDetails } from "../../support/property/bodies.js";
import { mutatedBody, scale } from "../../support/property/mutations.js";
import { read } from "../../support/property/oracle.js";
import { parse } from "../../support/property/pipeline.js";
import { exampleBundle, permissiveBundle } from "../../support/property/policies.js";
import { check, counted, PROPERTY_TEST_TIMEOUT_MS } from "../../support/property/run.js";
import { assertSignedOnlyWhatTheOracleAllows } from "../../support/property/signed-only.js";
import { addressBookView, BOOK_EVM, COLD, OUTSIDER_EVM } from "../../support/property/world.js";

const setting = { permissive: permissiveBundle(), example: exampleBundle(), view: addressBookView() };

type Body = Record<string, unknown>;
const isRecord = (v: unknown): v is Body => typeof v === "object" && v !== null && !Array.isArray(v);

/** A change to what the transaction moves or authorises; the body stays otherwise the same. */
const valueChange: fc.Arbitrary<(body: Body) => void> = fc.oneof(
  fc.integer({ min: 1, max: 6 }).map((k) => (body: Body) => {
    for (const t of (body.transfers as Body[] | undefined) ?? []) t.amount = scale(String(t.amount), k);
    const details = body.details as Record<string, Body> | undefined;
    if (details?.assetTransfer) details.assetTransfer.amount = scale(String(details.assetTransfer.amount), k);
    for (const d of (details?.assetBatchTransfer?.destinations as Body[] | undefined) ?? []) d.amount = scale(String(d.amount), k);
    for (const op of (details?.stellarTransaction?.operations as { body: Record<string, Body> }[] | undefined) ?? []) {
      const p = op.body.payment ?? op.body.sep41Payment;
      if (p) p.rawAmount = scale(String(p.rawAmount), k);
    }
  }),
  fc.constantFrom(OUTSIDER_EVM, COLD, BOOK_EVM.toLowerCase().replace("0x5", "0x6")).map((to) => (body: Body) => {
    for (const t of (body.transfers as Body[] | undefined) ?? []) t.destinationAddress = { value: to };
    const details = body.details as Record<string, Body> | undefined;
    if (details?.assetTransfer) details.assetTransfer.destination = to;
    for (const d of (details?.assetBatchTransfer?.destinations as Body[] | undefined) ?? []) d.destination = to;
  }),
  payload.map(([key, value]) => (body: Body) => {
    body[key] = value;
  }),
  fc.constant((body: Body) => {
    const evm = body.evmTransaction;
    if (isRecord(evm) && typeof evm.value === "string" && evm.value !== "0") evm.value = `${evm.value}000`;
    else body.tokenAllowances = [{ spenderAddress: { value: OUTSIDER_EVM }, asset: "assets/native.ethereum-mainnet", amount: "1" }];
  }),
  fc.constant((body: Body) => {
    body.request = { ...(isRecord(body.request) ? body.request : {}), sourceWallet: COLD };
  }),
);

describe("mutations of valid bodies", { timeout: PROPERTY_TEST_TIMEOUT_MS }, () => {
  it(counted("never a crash; signed only what the permissive and the example policy allow and the body shows"), () => {
    check(mutatedBody, (body) => {
      assertSignedOnlyWhatTheOracleAllows(body, setting);
    });
  });

  it(counted("a redelivery with different value-moving content never has the decided transaction's digest"), () => {
    const original = fc.oneof(plainApiEvm, plainReference, plainStellarDetails);
    check(fc.tuple(original, valueChange), ([body, change]) => {
      const changed = structuredClone(body);
      change(changed);
      // Only changes the oracle reads as moving value differently count (an added null field does not).
      const view = setting.view;
      if (JSON.stringify(read(changed, view)) === JSON.stringify(read(body, view))) return;
      const before = parse(body);
      const after = parse(changed);
      if (!("tx" in before) || !("tx" in after)) return;
      expect(contentDigest(after.tx), JSON.stringify({ body, changed })).not.toBe(contentDigest(before.tx));
    });
  });
});
