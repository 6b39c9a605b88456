/**
 * The sender a TON, Sui, Aptos or Substrate chain object names is the account the platform signs
 * from (chain-senders.ts): it must be the transfers' raw source, compared as its chain reads
 * accounts, and it is part of the content digest. These
 * senders were delivery metadata, never compared, and left out of the digest.
 */
import { describe, expect, it } from "vitest";
import { contentDigest } from "./content-digest.js";
import { parseTransaction } from "./parse.js";
import { TX_NAME, WALLET, type Body } from "./test-bodies.js";

const HEX32 = (byte: string) => `0x${byte.repeat(32)}`;
const TON_RAW = "0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8";
const TON_EQ = "EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N";
const TON_OTHER = "Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF";
const ALICE_SS58 = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY";
const ALICE_POLKADOT = "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5";
const ALICE_KEY = "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d";
const BOB_SS58 = "5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty";

interface Chain {
  chain: string;
  network: string;
  object: string;
  field: string;
  source: string;
  /** Another spelling of the source's account, which must be accepted as the same. */
  same: string;
  /** The account the facts compare the sender as. */
  account: string;
  other: string;
  /** Text that is no account of the chain. */
  malformed: string;
}

const CHAINS: Chain[] = [
  {
    chain: "TON",
    network: "ton-mainnet",
    object: "tonTransaction",
    field: "sender",
    source: TON_RAW,
    same: TON_EQ,
    account: TON_EQ,
    other: TON_OTHER,
    malformed: "EQnot-a-ton-address",
  },
  {
    chain: "Sui",
    network: "sui-mainnet",
    object: "suiTransaction",
    field: "sender",
    source: HEX32("ab"),
    same: `0x${"AB".repeat(32)}`,
    account: HEX32("ab"),
    other: HEX32("02"),
    malformed: "0X" + "ab".repeat(32),
  },
  {
    chain: "Aptos",
    network: "aptos-mainnet",
    object: "aptosTransaction",
    field: "sender",
    source: `0x${"0".repeat(63)}a`,
    same: "0xA",
    account: `0x${"0".repeat(63)}a`,
    other: `0x${"0".repeat(63)}b`,
    malformed: "1",
  },
  {
    chain: "Substrate",
    network: "polkadot-mainnet",
    object: "substrateTransaction",
    field: "fromAddress",
    source: ALICE_POLKADOT,
    same: ALICE_KEY,
    account: ALICE_SS58,
    other: BOB_SS58,
    malformed: "0x1234",
  },
];

function body(c: Chain, sender: string | null, extra: Body = {}, source: string | null = c.source): Body {
  return {
    name: TX_NAME,
    type: "TRANSACTION",
    subType: "NATIVE_TRANSFER",
    network: `networks/${c.network}`,
    request: { sourceWallet: WALLET },
    transfers: [{ ...(source === null ? {} : { sourceAddress: { value: source } }), destinationAddress: { value: c.other }, amount: "1", asset: `assets/native.${c.network}` }],
    [c.object]: { ...(sender === null ? {} : { [c.field]: { value: sender } }), ...extra },
  };
}

function refusal(input: Body): string {
  const result = parseTransaction(input);
  if (result.ok) throw new Error("expected the body to be refused");
  expect(result.error.code).toBe("INVALID_TRANSACTION");
  return result.error.publicMessage;
}

function parsed(input: Body) {
  const result = parseTransaction(input);
  if (!result.ok) throw new Error(result.error.publicMessage);
  return result.value;
}

describe.each(CHAINS)("the $chain sender ($object.$field)", (c) => {
  it("is the transfers' source: read as tx.sender, in the chain's own account spelling", () => {
    expect(parsed(body(c, c.same)).sender).toEqual({ field: `${c.object}.${c.field}`, chain: c.chain, address: c.account });
  });

  it("is not the transfers' source: refused (400) at its path", () => {
    expect(refusal(body(c, c.other))).toBe(`${c.object}.${c.field}.value: is not the transfers' source`);
  });

  it("is no account of the chain: refused (400), it cannot be compared", () => {
    expect(refusal(body(c, c.malformed))).toBe(`${c.object}.${c.field}.value: must be an account on ${c.chain}`);
  });

  it("beside a source named by wallet: read as tx.sender, for the synced copy to check", () => {
    expect(parsed(body(c, c.same, {}, null)).sender?.address).toBe(c.account);
  });

  it("is in the content digest: a redelivery naming another sender is not the same transaction", () => {
    const first = contentDigest(parsed(body(c, c.source, {}, null)));
    expect(contentDigest(parsed(body(c, c.other, {}, null)))).not.toBe(first);
    // The hint beside it stays delivery metadata.
    expect(contentDigest(parsed({ ...body(c, c.source, {}, null), [c.object]: { [c.field]: { value: c.source, infoRef: "x" } } }))).toBe(first);
  });
});

describe("senders in two chain objects", () => {
  it("are refused (400): which transaction is signed is unclear", () => {
    const [sui, aptos] = [CHAINS[1]!, CHAINS[2]!];
    const both = { ...body(sui, null, {}, null), suiTransaction: { sender: { value: sui.source } }, aptosTransaction: { sender: { value: aptos.source } } };
    expect(refusal(both)).toBe("aptosTransaction.sender: must not be given beside suiTransaction.sender");
  });
});

describe("the chain a signature is valid on is content", () => {
  // Two chains the network does not contradict (parse.chain-ids.test.ts): Aptos testnet's and a
  // devnet's chain id; Polkadot's and Polkadot Asset Hub's genesis hash.
  it.each([
    ["aptosTransaction", "aptos-devnet", "chainId", "2", "165"],
    [
      "substrateTransaction",
      "polkadot-mainnet",
      "genesisHash",
      "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3",
      "0x68d56f15f85d3136970ec16946040bc1752654e906147f7e43e9d539d7c3de2f",
    ],
  ])("%s on %s, %s: a redelivery naming another chain is not the same transaction", (object, network, field, one, other) => {
    const c = { ...CHAINS.find((chain) => chain.object === object)!, network };
    expect(contentDigest(parsed(body(c, null, { [field]: one })))).not.toBe(contentDigest(parsed(body(c, null, { [field]: other }))));
  });
});
