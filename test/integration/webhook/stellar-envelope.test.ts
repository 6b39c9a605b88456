/**
 * End to end: a Stellar transaction's signed envelope (`rawXdrEnvelope`) is decoded and must
 * agree with the decoded operations countersign evaluates. Before, the envelope was not read, so
 * each refused body below was signed as the milder decoded list said. Envelopes are real, built and
 * signed with the network's library (src/core/transaction/test-envelopes.ts).
 */
import { randomUUID } from "node:crypto";
import { Operation } from "@stellar/stellar-base";
import { describe, expect, it } from "vitest";
import {
  apiEnvelopeBody,
  decodedPayment,
  envelope,
  listedTransfer,
  OTHER,
  payment,
  referenceEnvelopeBody,
  referencePayment,
  SENDER,
  USDC,
} from "../../../src/core/transaction/test-envelopes.js";
import { VAULT } from "../../support/bodies.js";
import { serviceWithPolicy } from "../../support/service.js";

const POLICY = `
version: "envelope-test.1"
default: deny
rules:
  - id: transfers-only
    decision: deny
    reason: only transfers
    when: {"!": {"in": [{"var": "tx.kind"}, ["assetTransfer", "stellarTransaction"]]}}
  - id: small
    decision: allow
    when: {"<=": [{"var": "transfer.amount"}, "100"]}
`;

const name = () => `${VAULT}/transactions/x${randomUUID().replaceAll("-", "")}`;

/** 1 USDC as the decoded list and transfers[] say it, with the given envelope. */
const oneUsdc = (raw: string) => apiEnvelopeBody([decodedPayment("10000000")], raw, [listedTransfer("1")], name());

describe("co-signer webhook: the Stellar envelope is the truth", () => {
  const suite = serviceWithPolicy(POLICY);

  it("signs 1 USDC whose envelope pays 1 USDC, plain or fee-bumped (the control)", async () => {
    expect((await suite.cosigner.deliver(oneUsdc(envelope([payment("10000000")])))).verdict).toBe("signed");
    expect((await suite.cosigner.deliver(oneUsdc(envelope([payment("10000000")], { feeBump: true })))).verdict).toBe("signed");
  });

  it.each([
    ["pays 200,000 USDC", [payment("2000000000000")]],
    ["pays another destination", [payment("10000000", OTHER)]],
    ["adds a second payment", [payment("10000000"), payment("2000000000000", OTHER)]],
    ["adds a signer to the sender's account", [payment("10000000"), Operation.setOptions({ source: SENDER, signer: { ed25519PublicKey: OTHER, weight: 255 } })]],
    ["merges the sender's account away", [payment("10000000"), Operation.accountMerge({ source: SENDER, destination: OTHER })]],
    ["adds a trustline", [payment("10000000"), Operation.changeTrust({ source: SENDER, asset: USDC })]],
  ])("refuses with 400 a 1 USDC body whose envelope %s (signed before)", async (_what, operations) => {
    const delivery = await suite.cosigner.deliver(oneUsdc(envelope(operations)));
    expect(delivery).toMatchObject({ verdict: "pending", status: 400 });
    expect(delivery.body).toMatchObject({ error: { code: "INVALID_TRANSACTION", message: expect.stringMatching(/^stellarTransaction\.rawXdrEnvelope: /) } });
  });

  it("refuses the reference shape's envelope that pays more than its operations", async () => {
    const body = referenceEnvelopeBody([referencePayment("10000000")], envelope([payment("2000000000000")]), name());
    expect(await suite.cosigner.deliver(body)).toMatchObject({ verdict: "pending", status: 400 });
  });

  it("reads an envelope-only body: its changeTrust makes it unknown, denied", async () => {
    const body = apiEnvelopeBody(null, envelope([payment("10000000"), Operation.changeTrust({ source: SENDER, asset: USDC })]), [listedTransfer("1")], name());
    const delivery = await suite.cosigner.deliver(body);
    expect(delivery.verdict).toBe("canceled");
    const row = await suite.tdb.handle.db
      .selectFrom("decisions")
      .select(["facts"])
      .where("transaction_name", "=", body.name as string)
      .executeTakeFirstOrThrow();
    expect((row.facts as { tx: unknown }[])[0]!.tx).toMatchObject({ kind: "unknown", payloads: ["stellar:changeTrust"] });
  });

  it("after a signature, a redelivery with another envelope is a conflicting snapshot", async () => {
    const original = oneUsdc(envelope([payment("10000000")]));
    expect((await suite.cosigner.deliver(original)).verdict).toBe("signed");
    const other = { ...original, stellarTransaction: { ...(original.stellarTransaction as object), rawXdrEnvelope: envelope([payment("10000000")], { feeBump: true }) } };
    expect((await suite.cosigner.deliver(other)).body).toMatchObject({ signTransaction: false, reasons: ["conflicting snapshot"] });
  });
});
