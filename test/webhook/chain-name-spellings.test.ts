/**
 * Solana, Bitcoin, TON and NEAR each write an account one way, which rules, the address book and
 * the windows compare, while wallets also pay a name or a URI to it (an SNS `.sol` name, a BIP-21
 * `bitcoin:` URI, a TON DNS `.ton` name or a `ton:` link), and NEAR accounts are lower case.
 * Through the real service, under a deny list naming each account with everything else allowed:
 * each other spelling is refused (400, left pending), never signed past the deny rule (found by a
 * review of account spellings: each was signed).
 */
import { describe, expect, it } from "vitest";
import { assetTransfer } from "../support/bodies.js";
import { serviceWithPolicy } from "../support/service.js";

const SOL = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const BTC = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const TON = "EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N";

const POLICY = `
version: "chain-name-deny-list.1"
default: deny
rules:
  - id: sanctioned
    decision: deny
    reason: The destination is on the deny list
    when: {"in": [{"var": "transfer.destination.address"}, ["${SOL}", "${BTC}", "${TON}", "treasury.near"]]}
  - id: everything-else
    decision: allow
    when: true
`;

describe("a deny list naming a Solana, a Bitcoin, a TON and a NEAR account", () => {
  const suite = serviceWithPolicy(POLICY);
  const deliver = (network: string, destination: string) => suite.cosigner.deliver(assetTransfer({ asset: `assets/native.${network}`, amount: "1", destination }));

  it.each([
    ["solana-mainnet", SOL],
    ["bitcoin-mainnet", BTC],
    ["bitcoin-mainnet", BTC.toUpperCase()],
    ["ton-mainnet", TON],
    ["ton-mainnet", "0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8"],
    ["near-mainnet", "treasury.near"],
  ])("cancels a transfer on %s to %s", async (network, destination) => {
    expect((await deliver(network, destination)).verdict).toBe("canceled");
  });

  it.each([
    ["solana-mainnet", "treasury.sol", "a Solana account must be written in base58"],
    ["solana-mainnet", `solana:${SOL}`, "not as a payment URI"],
    ["bitcoin-mainnet", `bitcoin:${BTC}`, "not as a payment URI"],
    ["bitcoin-mainnet", `BITCOIN:${BTC.toUpperCase()}`, "not as a payment URI"],
    ["ton-mainnet", "foundation.ton", "a TON account must be written raw (0:…) or user-friendly"],
    ["ton-mainnet", `ton:${TON}`, "not as a payment URI"],
    ["near-mainnet", "TREASURY.near", "a NEAR account must be written as its account id, in lower case"],
    ["near-mainnet", "Treasury.near", "a NEAR account must be written as its account id, in lower case"],
  ])("leaves a transfer on %s to %s pending (400), never signed", async (network, destination, message) => {
    const delivery = await deliver(network, destination);
    expect(delivery.status).toBe(400);
    expect(JSON.stringify(delivery.body)).toContain(message);
    expect(delivery.verdict).toBe("pending");
  });

  it("signs a transfer to an account it does not name", async () => {
    expect((await deliver("near-mainnet", "payroll.near")).verdict).toBe("signed");
    expect((await deliver("solana-mainnet", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")).verdict).toBe("signed");
  });
});

describe("a deny list naming Bitcoin, Solana and TON accounts, where the transfer's network is unknown", () => {
  const suite = serviceWithPolicy(POLICY);

  it.each([`bitcoin:${BTC}`, `solana:${SOL}`, `ton:${TON}`])("leaves a transfer of an opaque asset to %s pending (400), never signed", async (destination) => {
    const delivery = await suite.cosigner.deliver(assetTransfer({ asset: "assets/e72ff35a5b15", amount: "1", destination }));
    expect(delivery.status).toBe(400);
    expect(JSON.stringify(delivery.body)).toContain("not as a payment URI");
    expect(delivery.verdict).toBe("pending");
  });
});
