import { describe, expect, it } from "vitest";
import { statedFee } from "./fees.js";

const BTC = "assets/native.bitcoin-mainnet";

describe("statedFee: the network fee a body states, for tx.fee", () => {
  it.each([
    ["none", { name: "x" }, "ethereum-mainnet", null],
    ["BTC as stated", { btcTransaction: { fee: "0.00021", outputs: [{ amount: "1" }] } }, "bitcoin-mainnet", { asset: BTC, amount: "0.00021" }],
    [
      "BTC from inputs less outputs, agreeing with the stated fee",
      { btcTransaction: { inputs: [{ amount: "1.5" }, { amount: "0.5" }], outputs: [{ amount: "1.2" }, { amount: "0.7999" }], fee: "0.0001" } },
      "bitcoin-mainnet",
      { asset: BTC, amount: "0.0001" },
    ],
    [
      "BTC inputs less outputs when no fee is stated (3 in, 0.001 out: 2.999 to the miner)",
      { btcTransaction: { inputs: [{ amount: "3" }], outputs: [{ amount: "0.001" }] } },
      "bitcoin-mainnet",
      { asset: BTC, amount: "2.999" },
    ],
    [
      "BTC's own asset names the coin when the transaction names no network",
      { btcTransaction: { fee: "0.1", asset: "assets/native.bitcoin-testnet" } },
      null,
      { asset: "assets/native.bitcoin-testnet", amount: "0.1" },
    ],
    [
      "the transaction's network names the coin over BTC's own asset",
      { btcTransaction: { fee: "0.1", asset: "assets/native.elsewhere" } },
      "bitcoin-mainnet",
      { asset: BTC, amount: "0.1" },
    ],
    [
      "EVM with both prices: the higher",
      { evmTransaction: { fee: { gasLimit: "21000", maxFeePerGas: "0x1", gasPrice: "0x6fc23ac00" } } },
      "ethereum-mainnet",
      { asset: "assets/native.ethereum-mainnet", amount: "0.00063" },
    ],
    [
      "EVM at most gasLimit × maxFeePerGas (21,000 × 10^15 wei: 21 ETH)",
      { evmTransaction: { fee: { gasLimit: "21000", maxFeePerGas: "0x38d7ea4c68000", maxPriorityFeePerGas: "0x38d7ea4c68000" } } },
      "networks/ethereum-mainnet",
      { asset: "assets/native.ethereum-mainnet", amount: "21" },
    ],
    [
      "EVM legacy: gasLimit × gasPrice (21,000 × 30 gwei)",
      { evmTransaction: { fee: { gasLimit: "21000", gasPrice: "0x6fc23ac00" } } },
      "polygon-mainnet",
      { asset: "assets/native.polygon-mainnet", amount: "0.00063" },
    ],
    ["EVM without a price says nothing", { evmTransaction: { fee: { gasLimit: "21000", gasUsed: "21000" } } }, "ethereum-mainnet", null],
    // A priority fee without a maximum was not read (tx.fee null).
    [
      "EVM with only a priority fee: at least gasLimit × maxPriorityFeePerGas (21,000 × 10^15 wei)",
      { evmTransaction: { fee: { gasLimit: "21000", maxPriorityFeePerGas: "0x38d7ea4c68000" } } },
      "ethereum-mainnet",
      { asset: "assets/native.ethereum-mainnet", amount: "21" },
    ],
    [
      "EVM without a limit: at least 21,000 gas",
      { evmTransaction: { fee: { maxFeePerGas: "0x38d7ea4c68000" } } },
      "ethereum-mainnet",
      { asset: "assets/native.ethereum-mainnet", amount: "21" },
    ],
    [
      "BTC with an input of unstated amount: at least the stated inputs less the outputs",
      { btcTransaction: { inputs: [{ amount: "3" }, {}], outputs: [{ amount: "0.001" }] } },
      "bitcoin-mainnet",
      { asset: BTC, amount: "2.999" },
    ],
    [
      "BTC with an input of unstated amount and a stated fee above the least",
      { btcTransaction: { inputs: [{ amount: "0.5" }, {}], outputs: [{ amount: "0.6" }], fee: "0.0002" } },
      "bitcoin-mainnet",
      { asset: BTC, amount: "0.0002" },
    ],
    ["Solana lamports", { solanaTransaction: { fee: "5000" } }, "solana-mainnet", { asset: "assets/native.solana-mainnet", amount: "0.000005" }],
    ["Stellar stroops", { stellarTransaction: { fee: "100" } }, "stellar-mainnet", { asset: "assets/native.stellar-mainnet", amount: "0.00001" }],
    ["Aleo microcredits", { aleoTransaction: { feeMicrocredits: "2500" } }, "aleo-mainnet", { asset: "assets/native.aleo-mainnet", amount: "0.0025" }],
    // Only the total was read, never the fee transition that is signed.
    [
      "Aleo: the fee transition's base and priority fees when above the total",
      { aleoTransaction: { feeMicrocredits: "2500", feeOperation: { amountMicrocredits: "2500", priorityFeeMicrocredits: "900000000000" } } },
      "aleo-mainnet",
      { asset: "assets/native.aleo-mainnet", amount: "900000.0025" },
    ],
    [
      "Aleo: the fee transition alone",
      { aleoTransaction: { feeOperation: { amountMicrocredits: "3000" } } },
      "aleo-mainnet",
      { asset: "assets/native.aleo-mainnet", amount: "0.003" },
    ],
    [
      "Aleo: the total when above the fee transition",
      { aleoTransaction: { feeMicrocredits: "5000", feeOperation: { amountMicrocredits: "2500", priorityFeeMicrocredits: "500" } } },
      "aleo-mainnet",
      { asset: "assets/native.aleo-mainnet", amount: "0.005" },
    ],
    ["no network: the amount without an asset", { solanaTransaction: { fee: "5000" } }, null, { asset: null, amount: "0.000005" }],
    // These were metadata, so tx.fee was null and no rule could cap them.
    ["Sui: at most the gas budget, in MIST", { suiTransaction: { gasBudget: "5000000", gasPrice: "750" } }, "sui-mainnet", { asset: "assets/native.sui-mainnet", amount: "0.005" }],
    [
      "Sui: a budget of 1,000 SUI whatever the price",
      { suiTransaction: { gasBudget: "1000000000000", gasPrice: "999999999" } },
      "sui-mainnet",
      { asset: "assets/native.sui-mainnet", amount: "1000" },
    ],
    ["Sui without a budget says nothing", { suiTransaction: { gasPrice: "750" } }, "sui-mainnet", null],
    [
      "Aptos: at most maxGasAmount × gasUnitPrice, in octas",
      { aptosTransaction: { maxGasAmount: "2000", gasUnitPrice: "100" } },
      "aptos-mainnet",
      { asset: "assets/native.aptos-mainnet", amount: "0.002" },
    ],
    ["Aptos with one of the two says nothing", { aptosTransaction: { maxGasAmount: "2000" } }, "aptos-mainnet", null],
    ["Tron: the SUN it uses", { tronTransaction: { fee: { usedSun: "1500000" } } }, "tron-mainnet", { asset: "assets/native.tron-mainnet", amount: "1.5" }],
    [
      "Tron: its parts (TRX burned, an activation fee in SUN) when they add up to more than usedSun",
      { tronTransaction: { fee: { usedSun: "100000", bandwidth: { burned: "0.345" }, energy: { burned: "13.3959" }, accountActivationFee: { fee: "1000000" } } } },
      "tron-mainnet",
      { asset: "assets/native.tron-mainnet", amount: "14.7409" },
    ],
    ["Tron without a fee object says nothing", { tronTransaction: { signature: "AA==" } }, "tron-mainnet", null],
  ])("%s", (_what, snapshot, network, fee) => {
    expect(statedFee(snapshot, network, "")).toEqual({ ok: true, value: fee });
  });

  it.each([
    ["a BTC fee its inputs and outputs contradict", { btcTransaction: { inputs: [{ amount: "3" }], outputs: [{ amount: "0.001" }], fee: "0.0001" } }, "btcTransaction.fee"],
    ["BTC outputs above the inputs", { btcTransaction: { inputs: [{ amount: "1" }], outputs: [{ amount: "1.5" }] } }, "btcTransaction"],
    [
      "a BTC fee below the stated inputs less the outputs",
      { btcTransaction: { inputs: [{ amount: "3" }, {}], outputs: [{ amount: "0.001" }], fee: "0.0001" } },
      "btcTransaction.fee",
    ],
    ["a BTC fee that is not a plain decimal", { btcTransaction: { fee: "1e3" } }, "btcTransaction.fee"],
    ["an EVM gas price that is not hex", { evmTransaction: { fee: { gasLimit: "21000", maxFeePerGas: "1000" } } }, "evmTransaction.fee.maxFeePerGas"],
    ["an EVM priority fee that is not hex", { evmTransaction: { fee: { gasLimit: "21000", maxPriorityFeePerGas: "1000" } } }, "evmTransaction.fee.maxPriorityFeePerGas"],
    ["an EVM gas limit that is not an integer", { evmTransaction: { fee: { gasLimit: "21000.5", gasPrice: "0x1" } } }, "evmTransaction.fee.gasLimit"],
    ["Solana lamports as a number", { solanaTransaction: { fee: 5000 } }, "solanaTransaction.fee"],
    ["a Sui gas budget that is not an integer", { suiTransaction: { gasBudget: "5e6" } }, "suiTransaction.gasBudget"],
    ["a Sui gas price that is not an integer", { suiTransaction: { gasBudget: "5000000", gasPrice: "-1" } }, "suiTransaction.gasPrice"],
    ["an Aptos gas unit price as a number", { aptosTransaction: { maxGasAmount: "2000", gasUnitPrice: 100 } }, "aptosTransaction.gasUnitPrice"],
    ["a Tron usedSun that is not an integer", { tronTransaction: { fee: { usedSun: "1.5" } } }, "tronTransaction.fee.usedSun"],
    ["a Tron fee that is not an object", { tronTransaction: { fee: "1500000" } }, "tronTransaction.fee"],
    [
      "an Aleo priority fee that is not an integer",
      { aleoTransaction: { feeOperation: { amountMicrocredits: "1", priorityFeeMicrocredits: "1.5" } } },
      "aleoTransaction.feeOperation.priorityFeeMicrocredits",
    ],
    ["Aleo microcredits as a number", { aleoTransaction: { feeMicrocredits: 2500 } }, "aleoTransaction.feeMicrocredits"],
  ])("refuses %s at its path", (_what, snapshot, path) => {
    const result = statedFee(snapshot, "bitcoin-mainnet", "");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.publicMessage.startsWith(`${path}`)).toBe(true);
  });

  it("refuses fees stated in two chain objects", () => {
    const result = statedFee({ solanaTransaction: { fee: "5000" }, stellarTransaction: { fee: "100" } }, "solana-mainnet", "transaction");
    expect(result.ok).toBe(false);
  });
});
