import { Account, MuxedAccount } from "@stellar/stellar-base";
import { describe, expect, it } from "vitest";
import { buildFacts } from "../facts/build.js";
import { tx, view } from "../facts/test-views.js";
import type { Facts } from "../facts/types.js";
import { assetTransferBody } from "../transaction/test-bodies.js";
import { applyLogic } from "./decimal-logic.js";

const CHECKSUM = "0x52908400098527886E0F7030069857D2E4169EE7";
const LOWER = CHECKSUM.toLowerCase();
const USDC = "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
const USDC_CHECKSUM = "assets/erc20.ethereum-mainnet.0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const SOLANA = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const STELLAR = "GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN";
const POLKADOT = "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5";
const KUSAMA = "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F";
const XRP = "rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf";
const XRP_X = "XVLhHMPHU98es4dbozjVtdWzVrDjtV5fdx1mHp98tDMoQXb";
const XRP_X1 = "XVLhHMPHU98es4dbozjVtdWzVrDjtV8xvjGQTYPiAx6gwDC";
const TON_RAW = "0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8";
const TON_EQ = "EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N";
const TON_UQ = "UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI";
const TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const TRON_HEX = "41a614f803b6fd780986a42c78ec9c7f77e6ded13c";

const NOW = new Date("2026-11-21T12:00:00Z");
/** The facts of one transfer as the service builds them from a body: the parser's canonical spellings. */
function factsOf(destination: string, asset: string): Facts {
  const [facts] = buildFacts({ tx: tx(assetTransferBody({ destination, asset })), now: NOW, addressBook: view(), windows: [], totals: new Map() });
  return facts!;
}
const destination = { var: "transfer.destination.address" };
const muxed = (id: string) => new MuxedAccount(new Account(STELLAR, "0"), id).accountId();

describe("a rule's literal and a transfer's fact in any spelling of one account or asset are equal as plain strings", () => {
  it.each([
    ["an EVM address sent in checksum case, named in lower case", CHECKSUM, "assets/native.ethereum-mainnet", LOWER],
    ["an EVM address sent in lower case, named in checksum case", LOWER, "assets/native.ethereum-mainnet", CHECKSUM],
    ["a TON account sent raw, named non-bounceable", TON_RAW, "assets/native.ton-mainnet", TON_UQ],
    ["a TON account sent bounceable, named raw in capitals", TON_EQ, "assets/native.ton-mainnet", TON_RAW.toUpperCase()],
    ["a Tron address sent in hex, named in base58", TRON_HEX, "assets/native.tron-mainnet", TRON],
    ["a Tron address sent in base58, named in hex", TRON, "assets/native.tron-mainnet", TRON_HEX.toUpperCase()],
    ["a Substrate account sent under Kusama's prefix, named under Polkadot's", KUSAMA, "assets/native.kusama-mainnet", POLKADOT],
  ])("%s", (_what, sent, asset, named) => {
    const facts = factsOf(sent, asset);
    expect(applyLogic({ "==": [destination, named] }, facts)).toBe(true);
    expect(applyLogic({ "===": [named, destination] }, facts)).toBe(true);
    expect(applyLogic({ in: [destination, [SOLANA, named]] }, facts)).toBe(true);
    expect(applyLogic({ in: [destination, `${SOLANA}, ${named}`] }, facts)).toBe(true);
  });

  it.each([
    ["an ERC-20 contract in checksum case", USDC_CHECKSUM, USDC],
    ["a standard and network in capitals", USDC.replace("erc20.ethereum-mainnet", "ERC20.Ethereum-Mainnet"), USDC_CHECKSUM],
    ["an ERC-20 contract without 0x", USDC.replace(".0x", "."), USDC],
  ])("an asset sent with %s is the asset a rule names in another spelling", (_what, sent, named) => {
    const facts = factsOf(LOWER, sent);
    expect(applyLogic({ "===": [{ var: "transfer.asset" }, named] }, facts)).toBe(true);
    expect(applyLogic({ in: [{ var: "transfer.asset" }, [named]] }, facts)).toBe(true);
    expect(facts.transfer!.assetAsGiven).toBe(sent);
  });

  it("is transitive: two muxed addresses of one account are neither each other nor the account; their base account is", () => {
    const one = factsOf(muxed("1"), "assets/native.stellar-mainnet");
    const two = factsOf(muxed("2"), "assets/native.stellar-mainnet");
    expect(applyLogic({ "==": [destination, { var: "other" }] }, { ...one, other: two.transfer!.destination.address })).toBe(false);
    // Were an account equal to each of its muxed addresses, equality would not be transitive.
    expect(applyLogic({ "==": [{ var: "a" }, { var: "b" }] }, { a: STELLAR, b: muxed("1") })).toBe(false);
    expect(applyLogic({ in: [{ var: "a" }, [{ var: "b" }]] }, { a: XRP, b: XRP_X1 })).toBe(false);
    expect(applyLogic({ "==": [{ var: "transfer.destination.baseAccount" }, STELLAR] }, one)).toBe(true);
    expect(applyLogic({ "==": [{ var: "transfer.destination.baseAccount" }, STELLAR] }, two)).toBe(true);
    expect(one.transfer!.destination).toMatchObject({ address: muxed("1"), baseAccount: STELLAR, muxedId: "1" });
  });

  it("an XRP X-address without a tag is its classic account, and an account with sub-accounts is named by baseAccount", () => {
    const facts = factsOf(XRP_X, "assets/native.xrpl-mainnet");
    expect(facts.transfer!.destination).toMatchObject({ value: XRP_X, address: XRP, baseAccount: XRP, muxedId: null });
    expect(applyLogic({ "==": [{ var: "transfer.destination.baseAccount" }, XRP_X] }, facts)).toBe(true);
    expect(() => applyLogic({ "==": [destination, XRP] }, facts)).toThrow(/compare transfer\.destination\.baseAccount/);
    expect(() => applyLogic({ in: [destination, `${SOLANA}, ${STELLAR}`] }, facts)).toThrow(/compare transfer\.destination\.baseAccount/);
  });

  it("an XRP X-address with a tag lands in its classic account: baseAccount, with the tag as muxedId", () => {
    const facts = factsOf(XRP_X1, "assets/native.xrpl-mainnet");
    expect(facts.transfer!.destination).toMatchObject({ value: XRP_X1, address: XRP_X1, baseAccount: XRP, muxedId: "1" });
    expect(applyLogic({ in: [{ var: "transfer.destination.baseAccount" }, [SOLANA, XRP]] }, facts)).toBe(true);
  });

  it("other text compares as written", () => {
    expect(applyLogic({ "==": ["Treasury", "treasury"] }, {})).toBe(false);
    expect(applyLogic({ "==": [SOLANA, SOLANA.toLowerCase()] }, {})).toBe(false);
    expect(applyLogic({ in: ["Spring", "Springfield"] }, {})).toBe(false);
  });

  it("an address whose case is a checksum is found in a note whatever its case there", () => {
    expect(applyLogic({ in: [CHECKSUM, { var: "tx.note" }] }, { tx: { note: `refund to ${CHECKSUM}` } })).toBe(true);
    expect(applyLogic({ in: [LOWER, { var: "tx.note" }] }, { tx: { note: `refund to ${CHECKSUM}` } })).toBe(true);
  });
});
