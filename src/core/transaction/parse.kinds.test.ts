import { describe, expect, it } from "vitest";
import { parseTransaction } from "./parse.js";
import { canonicalAccount } from "../chains/canonical.js";
import {
  SEP41_TOKEN,
  STELLAR_SPONSOR,
  STELLAR_USDC,
  TX_NAME,
  EVM_DEST,
  USDC_ETH,
  VAULT,
  WALLET,
  apiBody,
  apiStellarBody,
  apiStellarPayment,
  apiTransfer,
  assetTransferBody,
  stellarBody,
  stellarPayment,
  type Body,
  parsed,
} from "./test-bodies.js";

const EVM_DEST_2 = "0x2222222222222222222222222222222222222222";

describe("kind from shape 1 details", () => {
  const cases: { details: Body; kind: string; transfers: number }[] = [
    { details: { assetTransfer: { asset: USDC_ETH, amount: "1", source: WALLET, destination: EVM_DEST } }, kind: "assetTransfer", transfers: 1 },
    {
      details: {
        assetBatchTransfer: {
          asset: USDC_ETH,
          source: WALLET,
          destinations: [
            { destination: EVM_DEST, amount: "1" },
            { destination: EVM_DEST_2, amount: "2", note: "second" },
            { destination: `${VAULT}/wallets/w2`, amount: "3" },
          ],
        },
      },
      kind: "assetTransfer",
      transfers: 3,
    },
    { details: stellarBody([stellarPayment("1")]).details as Body, kind: "stellarTransaction", transfers: 1 },
    { details: { evmAccountDelegation: { fromAddress: `0x${"11".repeat(20)}`, contractAddress: `0x${"22".repeat(20)}` } }, kind: "evmAccountDelegation", transfers: 0 },
    { details: { evmTransaction: { data: "0x" } }, kind: "unknown", transfers: 0 },
    { details: { evmPersonalSign: {} }, kind: "unknown", transfers: 0 },
    { details: {}, kind: "unknown", transfers: 0 },
    // protobuf JSON may write unset oneof members as null: they are not a second kind.
    { details: { assetTransfer: null, evmPersonalSign: {} }, kind: "unknown", transfers: 0 },
  ];
  it.each(cases)("$kind with $transfers transfer(s): %#", ({ details, kind, transfers }) => {
    const tx = parsed({ name: TX_NAME, details });
    expect(tx.kind).toBe(kind);
    expect(tx.transfers).toHaveLength(transfers);
    expect(tx.transfers.map((t) => t.index)).toEqual([...Array(transfers).keys()]);
  });

  it("a batch gives one transfer per destination, from the batch's source and asset", () => {
    const tx = parsed({
      name: TX_NAME,
      details: {
        assetBatchTransfer: {
          asset: USDC_ETH,
          source: WALLET,
          sponsor: `${VAULT}/wallets/gas`,
          destinations: [
            { destination: EVM_DEST, amount: "1.5" },
            { destination: EVM_DEST_2, amount: "2" },
          ],
        },
      },
    });
    expect(tx.transfers.map((t) => [t.destination.value, t.amount, t.source.wallet, t.asset, t.sponsor])).toEqual([
      [EVM_DEST, "1.5", WALLET, USDC_ETH, `${VAULT}/wallets/gas`],
      [EVM_DEST_2, "2", WALLET, USDC_ETH, `${VAULT}/wallets/gas`],
    ]);
  });
});

describe("kind from shape 2", () => {
  const one = [apiTransfer()];
  const cases: { top: Body; transfers: unknown[]; kind: string; count: number }[] = [
    ...["NATIVE_TRANSFER", "TOKEN_TRANSFER", "NATIVE_MULTI_TRANSFER", "BATCH_TRANSFER", "BTC_TRANSFER"].map((subType) => ({
      top: { subType },
      transfers: one,
      kind: "assetTransfer",
      count: 1,
    })),
    // A subType that says "more than a transfer" is a payload: never a plain Stellar payment.
    { top: { subType: "GENERIC_TRANSACTION", network: "networks/stellar-mainnet", stellarTransaction: {} }, transfers: [], kind: "unknown", count: 0 },
    { top: { subType: "EVM_ACCOUNT_DELEGATION" }, transfers: [], kind: "evmAccountDelegation", count: 0 },
    { top: { subType: undefined, evmAccountDelegation: { chainId: "1" } }, transfers: [], kind: "evmAccountDelegation", count: 0 },
    { top: { subType: "CONTRACT_CALL", evmAccountDelegation: { chainId: "1" } }, transfers: [], kind: "unknown", count: 0 },
    // A "delegation" that lists transfers is not signed as a bare delegation: its transfers are kept.
    { top: { subType: "EVM_ACCOUNT_DELEGATION" }, transfers: one, kind: "unknown", count: 1 },
    { top: { subType: "TOKEN_APPROVAL", transfers: undefined }, transfers: [], kind: "unknown", count: 0 },
    { top: { subType: "CONTRACT_CALL" }, transfers: [apiTransfer(), apiTransfer({ amount: "2" })], kind: "unknown", count: 2 },
    { top: { subType: "PERSONAL_SIGN", type: "MESSAGE" }, transfers: [], kind: "unknown", count: 0 },
    { top: { subType: undefined }, transfers: one, kind: "unknown", count: 1 },
  ];
  it.each(cases)("$kind: %#", ({ top, transfers, kind, count }) => {
    const tx = parsed(apiBody(transfers, top));
    expect(tx.kind).toBe(kind);
    expect(tx.transfers).toHaveLength(count);
  });

  it("a transfer kind that lists nothing and carries nothing else is refused: what would be signed is not described", () => {
    const refused = (body: unknown) => {
      const result = parseTransaction(body);
      return result.ok ? "parsed" : result.error.publicMessage;
    };
    expect(refused(apiBody([]))).toBe("transfers: must list at least one transfer");
    expect(refused(apiBody([], { transfers: undefined, subType: "NATIVE_TRANSFER" }))).toBe("transfers: must list at least one transfer");
    const emptyStellar = { subType: "TOKEN_TRANSFER", network: "networks/stellar-mainnet", stellarTransaction: { operations: [] } };
    expect(refused(apiBody([], emptyStellar))).toBe("stellarTransaction.operations: must list at least one transfer");
    expect(refused(apiBody([], { ...emptyStellar, stellarTransaction: {} }))).toBe("stellarTransaction.operations: must list at least one transfer");
    expect(refused({ transaction: apiBody([]) })).toBe("transaction.transfers: must list at least one transfer");
    // Something else it carries makes it unknown, for the policy to judge; so does a marker.
    expect(parsed(apiBody([], { tokenAllowances: [{ asset: "assets/native.ethereum-mainnet", amount: "1" }] })).kind).toBe("unknown");
    expect(
      parsed(
        apiBody([], {
          ...emptyStellar,
          stellarTransaction: {
            operations: [{ sourceAccountAddress: { value: "GSENDERAXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX" }, decodedBody: { changeTrust: { asset: "x" } } }],
          },
        }),
      ).payloads,
    ).toEqual(["stellar:changeTrust"]);
  });

  it("a transfers[] that is absent or null is no transfers", () => {
    for (const transfers of [undefined, null]) {
      expect(parsed({ name: TX_NAME, subType: "PERSONAL_SIGN", transfers }).transfers).toEqual([]);
    }
  });

  it("the Stellar transaction-level source account is every transfer's sponsor", () => {
    const tx = parsed(apiStellarBody([apiStellarPayment("10000000", "GDESTA", "native")]));
    expect(tx.transfers[0]).toMatchObject({ sponsor: STELLAR_SPONSOR, network: "stellar-mainnet", asset: "native", amount: "1" });
  });
});

describe("source and destination forms", () => {
  const other = "vaults/othervault/wallets/w9";
  const raw = (value: string) => ({ kind: "address", wallet: null, address: canonicalAccount(value) });
  const cases: { value: string; expected: Body; asSource?: "refused"; asset?: string }[] = [
    { value: WALLET, expected: { kind: "wallet", wallet: WALLET, address: null } },
    { value: `${WALLET}/addresses/addr1`, expected: { kind: "walletAddress", wallet: WALLET, address: null } },
    // A transaction spends from its own vault only.
    { value: other, expected: { kind: "wallet", wallet: other, address: null }, asSource: "refused" },
    { value: "0x52908400098527886E0F7030069857D2E4169EE7", expected: raw("0x52908400098527886E0F7030069857D2E4169EE7") },
    { value: "bc1q3vfght7rln2c3733dl42navt8pslfya7talfns", expected: raw("bc1q3vfght7rln2c3733dl42navt8pslfya7talfns"), asset: "assets/native.bitcoin-mainnet" },
    // The short form names a wallet of the transaction's vault.
    { value: "wallets/7a8b9c0d1e2f", expected: { kind: "wallet", wallet: WALLET, address: null } },
    { value: "wallets/7a8b9c0d1e2f/addresses/a1", expected: { kind: "walletAddress", wallet: WALLET, address: null } },
  ];
  it.each(cases)("as destination: $value", ({ value, expected, asset }) => {
    const tx = parsed(assetTransferBody({ destination: value, ...(asset ? { asset } : {}) }));
    expect(tx.transfers[0]?.destination).toEqual({ value, ...expected });
  });
  it.each(cases)("as source: $value", ({ value, expected, asSource, asset }) => {
    const result = parseTransaction(assetTransferBody({ source: value, ...(asset ? { asset } : {}) }));
    if (asSource === "refused") return expect(result.ok).toBe(false);
    expect(result.ok && result.value.transfers[0]?.source).toEqual({ value, ...expected });
  });

  // Near misses of a resource name are neither wallets nor raw addresses: refused.
  const malformed = [`${WALLET}/`, `${WALLET}/addresses/a/b`, "vaults/v/wallets/w x", "vaults//wallets/w", "wallets/", "", "0x 1", "assets/x"];
  it.each(malformed)("malformed endpoint %j is refused as source and destination", (value) => {
    for (const field of ["source", "destination"]) {
      const result = parseTransaction(assetTransferBody({ [field]: value }));
      expect(result.ok ? "accepted" : result.error.code).toBe("INVALID_TRANSACTION");
    }
  });

  it("sponsor as given, or null", () => {
    expect(parsed(assetTransferBody({ sponsor: `${VAULT}/wallets/gas` })).transfers[0]?.sponsor).toBe(`${VAULT}/wallets/gas`);
    expect(parsed(assetTransferBody()).transfers[0]?.sponsor).toBeNull();
    expect(parsed(assetTransferBody({ sponsor: null })).transfers[0]?.sponsor).toBeNull();
  });
});

describe("shape 2 source: request.sourceWallet", () => {
  const cases: { sourceWallet: string | undefined; sourceAddress: Body | undefined; expected: Body }[] = [
    // BTC transfers carry no sourceAddress: the wallet stands for the source.
    { sourceWallet: WALLET, sourceAddress: undefined, expected: { value: WALLET, kind: "wallet", wallet: WALLET, address: null } },
    { sourceWallet: WALLET, sourceAddress: { value: null }, expected: { value: WALLET, kind: "wallet", wallet: WALLET, address: null } },
    // The API's own example writes `wallets/{w}`: qualified with the transaction's vault.
    { sourceWallet: "wallets/7a8b9c0d1e2f", sourceAddress: undefined, expected: { value: WALLET, kind: "wallet", wallet: WALLET } },
    // A raw source stays what it says: the claimed wallet is kept beside it (tx.sourceWallet), never written over it.
    { sourceWallet: WALLET, sourceAddress: { value: "bc1qsrc" }, expected: { value: "bc1qsrc", kind: "address", wallet: null, address: "bc1qsrc" } },
    { sourceWallet: undefined, sourceAddress: { value: "0xabc" }, expected: { value: "0xabc", kind: "address", wallet: null, address: "0xabc" } },
  ];
  it.each(cases)("sourceWallet $sourceWallet, sourceAddress $sourceAddress", ({ sourceWallet, sourceAddress, expected }) => {
    const transfer = { destinationAddress: { value: "bc1qdest" }, amount: "0.5", asset: "assets/native.bitcoin-mainnet", sourceAddress };
    const tx = parsed(apiBody([transfer], { subType: "BTC_TRANSFER", network: "networks/bitcoin-mainnet", request: { sourceWallet } }));
    expect(tx.transfers[0]?.source).toMatchObject(expected);
    expect(tx.transfers[0]?.network).toBe("bitcoin-mainnet");
  });

  it("hints (infoRef, referencedAddressesInfo) never make an endpoint a wallet", () => {
    const body = {
      transaction: apiBody([apiTransfer({ destinationAddress: { value: EVM_DEST, infoRef: "ref1" } })]),
      referencedAddressesInfo: { [EVM_DEST]: { wallet: `${VAULT}/wallets/w1`, addressBookEntry: `${VAULT}/addressBookEntries/e1` } },
    };
    expect(parsed(body).transfers[0]?.destination).toEqual({ value: EVM_DEST, kind: "address", wallet: null, address: EVM_DEST.toLowerCase() });
  });
});

describe("transfer network and asset standard", () => {
  const cases: { asset: string; txNetwork: string | undefined; network: string | null; standard: string; destination?: string }[] = [
    { asset: "assets/native.ethereum-mainnet", txNetwork: undefined, network: "ethereum-mainnet", standard: "native" },
    { asset: USDC_ETH, txNetwork: undefined, network: "ethereum-mainnet", standard: "erc20" },
    // The asset id names the network when the transaction does not (one naming another is refused).
    { asset: "assets/erc20.polygon-mainnet.0x2791bca1f2de4661ed88a30c99a7a9449aa84174", txNetwork: undefined, network: "polygon-mainnet", standard: "erc20" },
    // A Solana account is base58 (a 0x address there is refused).
    {
      asset: "assets/spl.solana-mainnet.EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
      txNetwork: undefined,
      network: "solana-mainnet",
      standard: "spl",
      destination: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
    },
    {
      asset: "assets/spl-token-2022.solana-mainnet.2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo",
      txNetwork: undefined,
      network: "solana-mainnet",
      standard: "spl",
      destination: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
    },
    // A Tron account is base58 (a 0x address there is refused).
    {
      asset: "assets/trc20.tron-mainnet.TKieffkQXtW8Dr1hKXKGPqCqYi1UNMjJw",
      txNetwork: undefined,
      network: "tron-mainnet",
      standard: "other",
      destination: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
    },
    { asset: "assets/e72ff35a5b15", txNetwork: "networks/ethereum-mainnet", network: "ethereum-mainnet", standard: "other" },
    { asset: "assets/e72ff35a5b15", txNetwork: undefined, network: null, standard: "other" },
  ];
  it.each(cases)("$asset on $txNetwork", ({ asset, txNetwork, network, standard, destination }) => {
    const tx = parsed(assetTransferBody({ asset, ...(destination ? { destination } : {}) }, { network: txNetwork }));
    expect(tx.transfers[0]).toMatchObject({ network, assetStandard: standard, asset });
    expect(tx.network).toBe(txNetwork ?? null);
  });
});

describe("Stellar operations (shape 1)", () => {
  const cases: { rawAmount: string; amount: string }[] = [
    { rawAmount: "12345678", amount: "1.2345678" },
    { rawAmount: "10000000", amount: "1" },
    { rawAmount: "1", amount: "0.0000001" },
    { rawAmount: "0", amount: "0" },
    { rawAmount: "0012345678", amount: "1.2345678" },
    { rawAmount: "9223372036854775807", amount: "922337203685.4775807" },
  ];
  it.each(cases)("payment rawAmount $rawAmount → amount $amount", ({ rawAmount, amount }) => {
    const tx = parsed(stellarBody([stellarPayment(rawAmount)]));
    expect(tx.transfers[0]).toMatchObject({ amount, rawAmount, assetStandard: "stellarClassic", asset: STELLAR_USDC });
  });

  it("a SEP-41 payment has only a raw amount; its asset is the contract", () => {
    const sep41 = {
      sep41Payment: { destinationAddress: "GDEST", sourceAddress: "GSENDERAXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", contractAddress: SEP41_TOKEN, rawAmount: "5000000" },
    };
    const tx = parsed(stellarBody([sep41], "networks/stellar-testnet"));
    expect(tx.transfers[0]).toMatchObject({ asset: SEP41_TOKEN, assetStandard: "sep41", amount: null, rawAmount: "5000000", network: "stellar-testnet" });
    expect(tx.network).toBe("networks/stellar-testnet");
  });

  it("the native asset is taken as given", () => {
    const tx = parsed(stellarBody([stellarPayment("10000000", "GDEST", "native")]));
    expect(tx.transfers[0]).toMatchObject({ asset: "native", amount: "1", assetStandard: "stellarClassic" });
  });
});

describe("transaction fields", () => {
  it("externalId from the top level, else from request", () => {
    expect(parsed(apiBody([apiTransfer()], { request: { externalId: "r-1" } })).externalId).toBe("r-1");
    expect(parsed(apiBody([apiTransfer()], { externalId: "top", request: { externalId: "r-1" } })).externalId).toBe("top");
  });
  it("initiator from request; absent fields are null / []", () => {
    const tx = parsed({ name: TX_NAME });
    expect(tx).toMatchObject({ kind: "unknown", initiator: null, designatedSigners: [], note: null, state: null, network: null, transfers: [] });
    expect(parsed(apiBody([apiTransfer()])).initiator).toBe("users/ops@example.com");
  });
});
