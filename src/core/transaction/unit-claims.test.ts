import { describe, expect, it } from "vitest";
import { parsed } from "./test-bodies.js";
import { unitClaims } from "./unit-claims.js";

const USDC = "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
const FROM = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const TO = "0x52908400098527886E0F7030069857D2E4169EE7";
const word = (hex: string) => hex.padStart(64, "0");

function body(transfer: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    name: "vaults/v1/transactions/t1",
    subType: transfer.asset === USDC ? "TOKEN_TRANSFER" : "NATIVE_TRANSFER",
    network: "networks/ethereum-mainnet",
    transfers: [{ sourceAddress: { value: FROM }, destinationAddress: { value: TO }, ...transfer }],
    ...extra,
  };
}

describe("unit claims: amounts stated twice whose agreement needs the token's decimals", () => {
  it("claims a token transfer's amount against its rawAmount", () => {
    expect(unitClaims(parsed(body({ asset: USDC, amount: "5", rawAmount: "5000000" })))).toEqual([
      { transferIndex: 0, asset: USDC, amount: "5", rawAmount: "5000000", statedBy: "rawAmount" },
    ]);
  });

  it("claims a token transfer's amount against the transfer() its calldata makes", () => {
    const data = `0xa9059cbb${word(TO.slice(2).toLowerCase())}${word((7_250_000).toString(16))}`;
    const evmTransaction = { fromAddress: { value: FROM }, toAddress: { value: "0xA0b86991c6218b36c1d19d4a2e9eB0cE3606eB48" }, value: "0", data };
    expect(unitClaims(parsed(body({ asset: USDC, amount: "7.25" }, { evmTransaction })))).toEqual([
      { transferIndex: 0, asset: USDC, amount: "7.25", rawAmount: "7250000", statedBy: "evmCalldata" },
    ]);
  });

  it("claims a native coin of decimals the body does not say against the wei its evmTransaction sends", () => {
    const coin = "assets/native.custom-mainnet";
    const evmTransaction = { fromAddress: { value: FROM }, toAddress: { value: TO }, value: "2000000000000000000" };
    expect(unitClaims(parsed({ ...body({ asset: coin, amount: "2" }, { evmTransaction }), network: "networks/custom-mainnet" }))).toEqual([
      { transferIndex: 0, asset: coin, amount: "2", rawAmount: "2000000000000000000", statedBy: "evmValue" },
    ]);
    // Ether's decimals are known: nothing to check.
    expect(unitClaims(parsed(body({ asset: "assets/native.ethereum-mainnet", amount: "2" }, { evmTransaction })))).toEqual([]);
  });

  it("claims nothing where the body fixes the decimals or states the amount once", () => {
    expect(unitClaims(parsed(body({ asset: "assets/native.ethereum-mainnet", amount: "1", rawAmount: "1000000000000000000" })))).toEqual([]);
    expect(unitClaims(parsed(body({ asset: USDC, amount: "5" })))).toEqual([]);
    expect(unitClaims(parsed(body({ asset: USDC, rawAmount: "5000000" })))).toEqual([]);
  });
});
