import { Account, MuxedAccount } from "@stellar/stellar-base";
import { describe, expect, it } from "vitest";
import { tx, view } from "../core/facts/test-views.js";
import { STELLAR_USDC, VAULT } from "../core/transaction/test-bodies.js";
import { SENDER } from "../core/transaction/test-envelopes.js";
import { verifyClaims } from "./verify-claims.js";

const NO_DECIMALS = { decimalsOf: async () => ({ known: false as const, reason: "unused" }) };
const A = `${VAULT}/wallets/A`;
const B = `${VAULT}/wallets/B`;

describe("a raw source the synced copy knows as another wallet than request.sourceWallet", () => {
  const book = view({ own: [{ wallet: A, walletAddress: null, address: SENDER, network: "stellar-mainnet" }] });
  const body = (source: string) => ({
    name: `${VAULT}/transactions/t`,
    type: "TRANSACTION",
    subType: "TOKEN_TRANSFER",
    network: "networks/stellar-mainnet",
    request: { sourceWallet: B },
    stellarTransaction: {
      operations: [{ sourceAccountAddress: { value: source }, decodedBody: { payment: { destinationAddress: { value: "GDESTA" }, asset: STELLAR_USDC, amount: "1" } } }],
    },
  });

  it("is refused, whether the address is the account or one of its muxed ids", async () => {
    const muxed = new MuxedAccount(new Account(SENDER, "0"), "42").accountId();
    for (const source of [SENDER, muxed]) {
      const check = await verifyClaims(tx(body(source)), book, NO_DECIMALS);
      expect(check).toMatchObject({ kind: "refused", error: { code: "INVALID_TRANSACTION" } });
    }
  });
});
