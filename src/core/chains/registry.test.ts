import { describe, expect, it } from "vitest";
import { accountFamily, familyOfNetwork, nativeDecimalsOf } from "./registry.js";
import { endpointSpellingIssue } from "./spelling.js";

describe("the registry maps a network to its chain family", () => {
  it.each([
    ["ethereum-mainnet", "evm"],
    ["networks/base-sepolia", "evm"],
    ["bitcoin-testnet", "bitcoin"],
    ["litecoin-mainnet", "bitcoin"],
    ["solana-devnet", "solana"],
    ["tron-nile", "tron"],
    ["ton-mainnet", "ton"],
    ["polkadot-mainnet", "substrate"],
    ["westend-testnet", "substrate"],
    ["sui-mainnet", "move"],
    ["aptos-testnet", "move"],
    ["hedera-mainnet", "hedera"],
    ["near-mainnet", "near"],
    ["stellar-mainnet", "stellar"],
    ["aleo-mainnet", "aleo"],
  ])("%s is %s", (network, family) => {
    expect(familyOfNetwork(network)?.name).toBe(family);
  });

  it("knows no family for a network it does not know", () => {
    expect(familyOfNetwork("cardano-mainnet")).toBeNull();
  });

  it.each([
    ["assets/native.ethereum-mainnet", 18],
    ["assets/native.bitcoin-mainnet", 8],
    ["assets/native.dogecoin-mainnet", 8],
    ["assets/native.stellar-testnet", 7],
    ["assets/native.solana-mainnet", 9],
    ["assets/native.tron-mainnet", 6],
    ["assets/native.sui-mainnet", null],
  ])("gives %s the native decimals %s", (asset, decimals) => {
    expect(nativeDecimalsOf(asset.slice("assets/native.".length))).toBe(decimals);
  });

  it.each([
    ["assets/erc20.polygon-mainnet.0x2791bca1f2de4661ed88a30c99a7a9449aa84174", null, "evm"],
    ["assets/erc20.unknownchain-mainnet.0x2791bca1f2de4661ed88a30c99a7a9449aa84174", null, "evm"],
    ["assets/native.tron", null, "tron"],
    ["assets/USDC", "networks/ethereum-mainnet", "evm"],
    ["assets/substrate.custom-chain.1984", null, "substrate"],
    ["assets/native.cardano-mainnet", null, undefined],
  ])("reads the accounts of a transfer of %s (network %s) as %s's", (asset, network, family) => {
    expect(accountFamily(asset, network)?.name).toBe(family);
  });
});

describe("a raw account is written as its family compares it, or refused", () => {
  const on = (network: string) => accountFamily("", network);
  it.each([
    ["ethereum-mainnet", "0x52908400098527886E0F7030069857D2E4169EE7", null],
    ["ethereum-mainnet", "0X52908400098527886E0F7030069857D2E4169EE7", /EVM address/],
    ["ethereum-mainnet", "treasury.eth", /EVM address/],
    ["tron-mainnet", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", null],
    ["tron-mainnet", "0xa614f803b6fd780986a42c78ec9c7f77e6ded13c", /Tron account/],
    ["hedera-mainnet", "0.0.12345", null],
    ["hedera-mainnet", "0.0.12345-vfmkw", /Hedera account/],
    ["solana-mainnet", "treasury.sol", /Solana account/],
    ["bitcoin-mainnet", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", null],
    ["bitcoin-mainnet", "bitcoin:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", /payment URI/],
    ["litecoin-mainnet", "treasury.ltc", /Bitcoin address/],
    ["ton-mainnet", "foundation.ton", /TON account/],
    ["near-mainnet", "Alice.near", /NEAR account/],
    ["near-mainnet", "alice.near", null],
    ["polkadot-mainnet", `0x${"ab".repeat(32)}`, /Substrate account/],
    ["sui-mainnet", "0xa", /Sui or Aptos/],
    ["sui-mainnet", `0X${"ab".repeat(32)}`, /Sui or Aptos/],
    ["cardano-mainnet", "addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3jcu5d8ps7zex2k2xt3uqxgjqnnj83ws8lhrn648jjxtwq2ytjqp", null],
  ])("on %s, %s", (network, address, issue) => {
    const found = endpointSpellingIssue(address, on(network));
    if (issue === null) expect(found).toBeNull();
    else expect(found).toMatch(issue);
  });
});
