/**
 * What crosses the webhook for an account's spellings, under a deny list naming one account with
 * everything else allowed: another spelling of that account reaches the rule as the account and is
 * canceled, a spelling the rule could not catch is answered 400 and left pending, and an account the
 * list does not name is signed. Which spellings each chain reads as one, and which it refuses, are
 * unit tables beside its code (src/chains/<family>/spellings.test.ts).
 */
import { describe, expect, it } from "vitest";
import { assetTransfer } from "../../support/bodies.js";
import { serviceWithPolicy } from "../../support/service.js";

// BIP-173's P2WPKH test vector.
const BTC = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";

const POLICY = `
version: "account-spellings-deny-list.1"
default: deny
rules:
  - id: sanctioned
    decision: deny
    reason: The destination is on the deny list
    when: {"in": [{"var": "transfer.destination.address"}, ["${BTC}"]]}
  - id: everything-else
    decision: allow
    when: true
`;

describe("a deny list naming a Bitcoin address in lower case", () => {
  const suite = serviceWithPolicy(POLICY);
  const deliver = (destination: string) => suite.cosigner.deliver(assetTransfer({ asset: "assets/native.bitcoin-mainnet", amount: "1", destination }));

  it("cancels a transfer to the address in capitals", async () => {
    expect((await deliver(BTC.toUpperCase())).verdict).toBe("canceled");
  });

  it("leaves a transfer to the address as a payment URI pending (400) with the refusal, never signed", async () => {
    const delivery = await deliver(`bitcoin:${BTC}`);
    expect(delivery).toMatchObject({ verdict: "pending", status: 400, body: { error: { code: "INVALID_TRANSACTION" } } });
    expect(JSON.stringify(delivery.body)).toContain("not as a payment URI");
  });

  it("signs a transfer to an address it does not name", async () => {
    expect((await deliver("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4")).verdict).toBe("signed");
  });
});
