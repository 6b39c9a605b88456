import { Account, MuxedAccount } from "@stellar/stellar-base";
import { describe, expect, it } from "vitest";
import type { GroupDimension, WindowSpec } from "../policy/types.js";
import {
  STELLAR_SENDER,
  STELLAR_USDC,
  VAULT,
  WALLET,
  apiBody,
  apiStellarBody,
  apiStellarPayment,
  apiStellarTransfer,
  apiTransfer,
  assetTransferBody,
  example,
  stellarBody,
  stellarPayment,
} from "../transaction/test-bodies.js";
import type { Transaction } from "../transaction/types.js";
import { parseTransaction } from "../transaction/parse.js";
import { groupKey, groupKeysForTransaction, transferGroupKeys } from "./group-keys.js";
import { buildTransferFacts } from "./transfer-facts.js";
import { tx, view } from "./test-views.js";
import { SENDER } from "../transaction/test-envelopes.js";
import type { AddressBookView } from "../addressbook/types.js";

const USDC_LOWER = "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
const SOL_MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const SOL_DEST = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";

const win = (groupBy: GroupDimension[], name = "w", durationSeconds = 3600): WindowSpec => ({
  name,
  duration: `${durationSeconds}s`,
  durationSeconds,
  groupBy,
  measure: "count",
});

function keysOf(body: unknown, window: WindowSpec, book: AddressBookView = view()): string[] {
  const t: Transaction = tx(body);
  return buildTransferFacts(t, book).map((f) => groupKey(window, t, f));
}
const keyOf = (body: unknown, window: WindowSpec, book?: AddressBookView): string => {
  const [key] = keysOf(body, window, book);
  if (key === undefined) throw new Error("no transfer");
  return key;
};

describe("groupKey: what makes two transfers share a group", () => {
  const usdcUpper = "assets/erc20.ethereum-mainnet.0xA0b86991c6218b36c1D19D4a2e9Eb0cE3606eB48";
  const cases: { what: string; a: unknown; b: unknown; groupBy: GroupDimension[]; same: boolean }[] = [
    {
      what: "shape 1 and shape 2 from one wallet, same asset",
      a: example("asset-transfer"),
      b: example("api-shape-token-transfer"),
      groupBy: ["sourceWallet", "asset"],
      same: true,
    },
    {
      what: "wallet and one of its wallet addresses as source",
      a: assetTransferBody(),
      b: assetTransferBody({ source: `${WALLET}/addresses/a1` }),
      groupBy: ["sourceWallet"],
      same: true,
    },
    { what: "EVM contract written in another case", a: assetTransferBody(), b: assetTransferBody({ asset: usdcUpper }), groupBy: ["asset"], same: true },
    {
      what: "EVM destination written in another case",
      a: assetTransferBody({ destination: "0x52908400098527886E0F7030069857D2E4169EE7" }),
      b: assetTransferBody({ destination: "0x52908400098527886e0f7030069857d2e4169ee7" }),
      groupBy: ["destination"],
      same: true,
    },
    {
      what: "Solana destinations differing in case",
      a: assetTransferBody({ asset: "assets/native.solana-mainnet", destination: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" }),
      b: assetTransferBody({ asset: "assets/native.solana-mainnet", destination: "epjfwdd5aufqssqem2qn1xzybapc8g4weggkzwytdt1v" }),
      groupBy: ["destination"],
      same: false,
    },
    { what: "another asset", a: assetTransferBody(), b: assetTransferBody({ asset: "assets/native.ethereum-mainnet" }), groupBy: ["sourceWallet", "asset"], same: false },
    {
      what: "an asset's standard and network in another case",
      a: assetTransferBody({ asset: "assets/native.ethereum-mainnet" }),
      b: assetTransferBody({ asset: "assets/Native.Ethereum-Mainnet" }),
      groupBy: ["asset"],
      same: true,
    },
    // The network came from the asset id as spelt, so a window grouped by network had a group per spelling.
    {
      what: "an asset's network in another case, grouped by network",
      a: assetTransferBody({ asset: "assets/native.ethereum-mainnet" }),
      b: assetTransferBody({ asset: "assets/NATIVE.Ethereum-Mainnet" }),
      groupBy: ["sourceWallet", "network"],
      same: true,
    },
    {
      what: "a Solana token under spl and spl-token",
      a: assetTransferBody({ asset: `assets/spl.solana-mainnet.${SOL_MINT}`, destination: SOL_DEST }),
      b: assetTransferBody({ asset: `assets/spl-token.solana-mainnet.${SOL_MINT}`, destination: SOL_DEST }),
      groupBy: ["sourceWallet", "asset"],
      same: true,
    },
    {
      what: "a Solana token under spl-token-2022",
      a: assetTransferBody({ asset: `assets/spl-token-2022.solana-mainnet.${SOL_MINT}`, destination: SOL_DEST }),
      b: assetTransferBody({ asset: `assets/spl-token.solana-mainnet.${SOL_MINT}`, destination: SOL_DEST }),
      groupBy: ["asset"],
      same: true,
    },
    {
      what: "an ERC-20 contract with 0X or no prefix",
      a: assetTransferBody({ asset: USDC_LOWER.replace(".0x", ".0X") }),
      b: assetTransferBody({ asset: USDC_LOWER.replace(".0x", ".") }),
      groupBy: ["asset"],
      same: true,
    },
    {
      what: "a Solana mint in another case",
      a: assetTransferBody({ asset: `assets/spl.solana-mainnet.${SOL_MINT}`, destination: SOL_DEST }),
      b: assetTransferBody({ asset: `assets/spl.solana-mainnet.${SOL_MINT.toLowerCase()}`, destination: SOL_DEST }),
      groupBy: ["asset"],
      same: false,
    },
    // BIP-173's one-case rule holds for every bech32 prefix.
    {
      what: "a Litecoin destination in capitals",
      a: assetTransferBody({ asset: "assets/native.litecoin-mainnet", destination: "ltc1qpvc9275lcn5suv6c0k3v0mq3xedcpfw24vvr3x" }),
      b: assetTransferBody({ asset: "assets/native.litecoin-mainnet", destination: "LTC1QPVC9275LCN5SUV6C0K3V0MQ3XEDCPFW24VVR3X" }),
      groupBy: ["destination", "asset"],
      same: true,
    },
    // One TON account is written raw, bounceable or non-bounceable.
    {
      what: "a TON destination raw and non-bounceable",
      a: assetTransferBody({ asset: "assets/native.ton-mainnet", destination: "0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8" }),
      b: assetTransferBody({ asset: "assets/native.ton-mainnet", destination: "UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI" }),
      groupBy: ["destination", "asset"],
      same: true,
    },
    // An X-address is an XRP Ledger account with an optional tag.
    {
      what: "an XRP destination as an X-address with a tag and as its account",
      a: assetTransferBody({ asset: "assets/native.xrpl-mainnet", destination: "XVLhHMPHU98es4dbozjVtdWzVrDjtVFpRb8iCFUkMtRyVii" }),
      b: assetTransferBody({ asset: "assets/native.xrpl-mainnet", destination: "rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf" }),
      groupBy: ["destination", "asset"],
      same: true,
    },
    {
      what: "an XRP destination under two tags",
      a: assetTransferBody({ asset: "assets/native.xrpl-mainnet", destination: "XVLhHMPHU98es4dbozjVtdWzVrDjtV8xvjGQTYPiAx6gwDC" }),
      b: assetTransferBody({ asset: "assets/native.xrpl-mainnet", destination: "XVLhHMPHU98es4dbozjVtdWzVrDjtVFpRb8iCFUkMtRyVii" }),
      groupBy: ["destination"],
      same: true,
    },
    // A Sui or Aptos account is 0x and 32 bytes of hex, in either case.
    {
      what: "a Sui destination in either case",
      a: assetTransferBody({ asset: "assets/native.sui-mainnet", destination: "0x5c8f4b6e1d2a3f4e5d6c7b8a9f0e1d2c3b4a5f6e7d8c9bafe1d2c3b4a5f6e7d8" }),
      b: assetTransferBody({ asset: "assets/native.sui-mainnet", destination: "0x5C8F4B6E1D2A3F4E5D6C7B8A9F0E1D2C3B4A5F6E7D8C9BAFE1D2C3B4A5F6E7D8" }),
      groupBy: ["destination", "asset"],
      same: true,
    },
    // One Substrate account in each network's SS58 format.
    {
      what: "a Polkadot destination in the Polkadot and generic formats",
      a: assetTransferBody({ asset: "assets/native.polkadot-mainnet", destination: "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5" }),
      b: assetTransferBody({ asset: "assets/native.polkadot-mainnet", destination: "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY" }),
      groupBy: ["destination", "asset"],
      same: true,
    },
    // The API takes a Tron address in hex as well as in base58.
    {
      what: "a Tron destination in hex and in base58",
      a: assetTransferBody({ asset: "assets/native.tron-mainnet", destination: "41a614f803b6fd780986a42c78ec9c7f77e6ded13c" }),
      b: assetTransferBody({ asset: "assets/native.tron-mainnet", destination: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" }),
      groupBy: ["destination", "asset"],
      same: true,
    },
    { what: "another source wallet", a: assetTransferBody(), b: assetTransferBody({ source: `${VAULT}/wallets/other` }), groupBy: ["sourceWallet"], same: false },
    {
      what: "another vault, same groupBy without vault",
      a: assetTransferBody(),
      b: { ...assetTransferBody({ source: "vaults/v2/wallets/w" }), name: "vaults/v2/transactions/t" },
      groupBy: ["asset"],
      same: true,
    },
    {
      what: "another vault, grouped by vault",
      a: assetTransferBody(),
      b: { ...assetTransferBody({ source: "vaults/v2/wallets/w" }), name: "vaults/v2/transactions/t" },
      groupBy: ["vault", "asset"],
      same: false,
    },
    {
      what: "Stellar mainnet vs testnet, same asset code",
      a: stellarBody([stellarPayment("1")]),
      b: stellarBody([stellarPayment("1")], "networks/stellar-testnet"),
      groupBy: ["asset"],
      same: false,
    },
    {
      what: "a Stellar asset in shape 1 and as the API references it",
      a: stellarBody([stellarPayment("1")]),
      b: apiStellarBody([apiStellarPayment("1")], [apiStellarTransfer("0.0000001")]),
      groupBy: ["asset", "network"],
      same: true,
    },
    {
      what: "other initiators",
      a: apiBody([apiTransfer()]),
      b: apiBody([apiTransfer()], { request: { sourceWallet: WALLET, initiator: "users/other" } }),
      groupBy: ["initiator"],
      same: false,
    },
  ];
  it.each(cases)("$what → same: $same", ({ a, b, groupBy, same }) => {
    expect(keyOf(a, win(groupBy)) === keyOf(b, win(groupBy))).toBe(same);
  });

  it("a raw source address of an own wallet groups with that wallet", () => {
    const own = { wallet: WALLET, walletAddress: null, address: "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", network: "ethereum-mainnet" };
    const raw = assetTransferBody({ source: "0xAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" });
    expect(keyOf(raw, win(["sourceWallet"]), view({ own: [own] }))).toBe(keyOf(assetTransferBody(), win(["sourceWallet"])));
    expect(keyOf(raw, win(["sourceWallet"]), view())).not.toBe(keyOf(assetTransferBody(), win(["sourceWallet"])));
  });

  it("depends on neither the window's name, duration, measure nor groupBy order", () => {
    const body = assetTransferBody();
    const base = keyOf(body, win(["sourceWallet", "asset"], "daily", 86_400));
    expect(keyOf(body, win(["asset", "sourceWallet"], "renamed", 3_600))).toBe(base);
    expect(keyOf(body, { ...win(["asset", "sourceWallet", "asset"]), measure: "amount" })).toBe(base);
  });

  it("is a canonical JSON of [dimension, value] pairs in a fixed order", () => {
    const key = keyOf(apiBody([apiTransfer()]), win(["initiator", "network", "asset", "destination", "sourceWallet", "vault"]));
    expect(JSON.parse(key)).toEqual([
      ["vault", VAULT],
      ["sourceWallet", ["wallet", WALLET]],
      ["destination", ["address", "0x52908400098527886e0f7030069857d2e4169ee7"]],
      ["asset", "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"],
      ["network", "ethereum-mainnet"],
      ["initiator", "users/ops@example.com"],
    ]);
  });

  it("cannot be forged by values that contain separators or quotes", () => {
    // Such values are not resource names or addresses: the parser refuses them before any key is built.
    const crafted = [
      apiBody([apiTransfer()], { request: { sourceWallet: WALLET, initiator: 'users/a","x' } }),
      apiBody([apiTransfer({ sourceAddress: { value: `["wallet","${WALLET}"]` } })], { request: {} }),
    ];
    for (const body of crafted) expect(parseTransaction(body).ok).toBe(false);
    // And the key itself is JSON: a value holding the key's own punctuation stays one value.
    const t = tx(apiBody([apiTransfer()]));
    const [facts] = buildTransferFacts(t, view());
    if (facts === undefined) throw new Error("no transfer");
    const forged = { ...facts, network: 'ethereum-mainnet"],["asset","x' };
    expect(JSON.parse(groupKey(win(["network", "asset"]), t, forged))).toEqual([
      ["asset", USDC_LOWER],
      ["network", 'ethereum-mainnet"],["asset","x'],
    ]);
  });
});

describe("one asset identity and one wallet identity, whatever the shape", () => {
  const daily = win(["sourceWallet", "asset"]);
  const A = `${VAULT}/wallets/A`;
  const B = `${VAULT}/wallets/B`;
  const ownA = { wallet: A, walletAddress: null, address: "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", network: "ethereum-mainnet" };

  it("Stellar USDC from one wallet, in shape 1 and in the API shape, is one group", () => {
    const stellarOwn = { wallet: A, walletAddress: null, address: STELLAR_SENDER, network: "stellar-mainnet" };
    const reference = stellarBody([stellarPayment("1")]);
    // The API body names a wallet in request.sourceWallet: it must not open a second window.
    const api = apiStellarBody([apiStellarPayment("1")], [apiStellarTransfer("0.0000001")], { request: { sourceWallet: A } });
    expect(keyOf(api, daily, view({ own: [stellarOwn] }))).toBe(keyOf(reference, daily, view({ own: [stellarOwn] })));
    // Without a copy that knows the address, the claim stands for it: still wallet A's group.
    expect(keyOf(api, daily)).toBe(keyOf(api, daily, view({ own: [stellarOwn] })));
  });

  it("a bare Stellar asset listed in transfers[] or details.assetTransfer is the asset its payment operation moves: one group", () => {
    const stellarOwn = { wallet: A, walletAddress: null, address: STELLAR_SENDER, network: "stellar-mainnet" };
    const book = view({ own: [stellarOwn] });
    const operation = keyOf(stellarBody([stellarPayment("1")]), daily, book);
    const bareListed = apiBody([apiStellarTransfer("0.0000001", { asset: STELLAR_USDC })], { network: "networks/stellar-mainnet", request: { sourceWallet: A } });
    const bareReference = assetTransferBody({ asset: STELLAR_USDC, amount: "0.0000001", source: A, destination: "GDESTA" }, { network: "networks/stellar-mainnet" });
    const named = apiBody([apiStellarTransfer("0.0000001")], { network: "networks/stellar-mainnet", request: { sourceWallet: A } });
    expect(keyOf(bareListed, daily, book)).toBe(operation);
    expect(keyOf(bareReference, daily, book)).toBe(operation);
    expect(keyOf(named, daily, book)).toBe(operation);
    // The policy reads the asset by its canonical name, and as the body spells it in assetAsGiven.
    expect(buildTransferFacts(tx(bareListed), book)[0]).toMatchObject({ asset: `assets/asset.stellar-mainnet.${STELLAR_USDC}`, assetAsGiven: STELLAR_USDC });
    // A classic code that starts like a contract address is still classic; testnet stays its own asset.
    const cny = "CNY-GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN";
    expect(keyOf(apiBody([apiStellarTransfer("1", { asset: cny })], { network: "networks/stellar-mainnet", request: { sourceWallet: A } }), daily, book)).toBe(
      keyOf(stellarBody([stellarPayment("10000000", "GDESTA", cny)]), daily, book),
    );
    expect(keyOf({ ...bareListed, network: "networks/stellar-testnet" }, daily, book)).not.toBe(operation);
  });

  it("a bare Stellar asset listed with amount and rawAmount is held to a classic asset's 7 decimals: a raw amount 10^5 times the stated one is refused", () => {
    const listed = (amount: string, rawAmount: string) =>
      apiBody([apiStellarTransfer(amount, { asset: STELLAR_USDC, rawAmount })], { network: "networks/stellar-mainnet", request: { sourceWallet: A } });
    expect(tx(listed("1", "10000000")).transfers[0]).toMatchObject({ assetStandard: "stellarClassic", amount: "1", rawAmount: "10000000" });
    const refused = parseTransaction(listed("6", "600000000000"));
    expect(refused.ok ? "parsed" : refused.error.publicMessage).toBe("transfers[0].rawAmount: disagrees with amount");
  });

  it("a Stellar muxed source (M…) is its base account's wallet: every mux id is the same group, not a fresh one", () => {
    const G = SENDER; // a valid strkey, which muxing needs
    const muxed = (id: string) => new MuxedAccount(new Account(G, "0"), id).accountId();
    const stellarOwn = { wallet: A, walletAddress: null, address: G, network: "stellar-mainnet" };
    const book = view({ own: [stellarOwn] });
    const from = (source: string) => ({
      name: `${VAULT}/transactions/mux`,
      details: { stellarTransaction: { network: "networks/stellar-mainnet", sourceAddress: source, operations: [{ sourceAccountAddress: source, body: stellarPayment("1") }] } },
    });
    const plain = keyOf(from(G), daily, book);
    expect(plain).toBe(keyOf(assetTransferBody({ asset: STELLAR_USDC, amount: "1", source: A, destination: "GDESTA" }, { network: "networks/stellar-mainnet" }), daily, book));
    expect(keyOf(from(muxed("1")), daily, book)).toBe(plain);
    expect(keyOf(from(muxed("18446744073709551615")), daily, book)).toBe(plain);
    // Without a copy that knows the account, the base account is the group, whatever the id.
    expect(keyOf(from(muxed("1")), daily)).toBe(keyOf(from(G), daily));
    expect(keyOf(from(muxed("2")), daily)).toBe(keyOf(from(muxed("3")), daily));
    // A destination grouped by its account: muxed ids of one account are one group too.
    const toDest = win(["destination"]);
    const pay = (destination: string) => stellarBody([stellarPayment("1", destination)]);
    expect(keyOf(pay(muxed("7")), toDest)).toBe(keyOf(pay(G), toDest));
  });

  it("an EVM transfer from a wallet by name and by raw address with request.sourceWallet is one group", () => {
    expect(keyOf(apiBody([apiTransfer()], { request: { sourceWallet: WALLET } }), daily)).toBe(keyOf(assetTransferBody(), daily));
  });

  it("the wallet the synced copy knows for the source address wins over request.sourceWallet", () => {
    const body = apiBody([apiTransfer({ sourceAddress: { value: ownA.address } })], { request: { sourceWallet: B } });
    const book = view({ own: [ownA] });
    expect(keyOf(body, daily, book)).toBe(keyOf(assetTransferBody({ source: A }), daily));
    expect(keyOf(body, daily, book)).not.toBe(keyOf(assetTransferBody({ source: B }), daily));
    const [facts] = buildTransferFacts(tx(body), book);
    expect(facts?.source).toMatchObject({ wallet: A, kind: "address" });
  });

  it("the short source form wallets/{w} groups with the full wallet name", () => {
    expect(keyOf(assetTransferBody({ source: "wallets/7a8b9c0d1e2f" }), daily)).toBe(keyOf(assetTransferBody({ source: WALLET }), daily));
  });
});

describe("keys of a whole transaction", () => {
  const windows = [win(["sourceWallet", "asset"], "daily", 86_400), win(["sourceWallet", "asset"], "hourly"), win(["destination"], "per_dest")];
  const body = {
    name: `${VAULT}/transactions/batch1`,
    details: {
      assetBatchTransfer: {
        asset: "assets/native.ethereum-mainnet",
        source: WALLET,
        destinations: [
          { destination: "0x2222222222222222222222222222222222222222", amount: "1" },
          { destination: "0x1111111111111111111111111111111111111111", amount: "2" },
          { destination: "0x2222222222222222222222222222222222222222", amount: "3" },
        ],
      },
    },
  };

  it("transferGroupKeys: per transfer, window name → key", () => {
    const t = tx(body);
    const perTransfer = transferGroupKeys(windows, t, buildTransferFacts(t, view()));
    expect(perTransfer).toHaveLength(3);
    for (const keys of perTransfer) {
      expect(Object.keys(keys)).toEqual(["daily", "hourly", "per_dest"]);
      expect(keys.daily).toBe(keys.hourly);
    }
    expect(perTransfer[0]?.per_dest).toBe(perTransfer[2]?.per_dest);
    expect(perTransfer[0]?.per_dest).not.toBe(perTransfer[1]?.per_dest);
  });

  it("groupKeysForTransaction: distinct and sorted (the advisory-lock order)", () => {
    const t = tx(body);
    const keys = groupKeysForTransaction(windows, t, buildTransferFacts(t, view()));
    expect(keys).toHaveLength(3);
    expect(keys).toEqual([...keys].sort());
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("a window named __proto__ stays plain data", () => {
    const t = tx(body);
    const [keys] = transferGroupKeys([win(["asset"], "__proto__")], t, buildTransferFacts(t, view()));
    expect(Object.getPrototypeOf(keys)).toBe(Object.prototype);
    expect(Object.keys(keys ?? {})).toEqual(["__proto__"]);
  });

  it("no transfers, no keys", () => {
    const t = tx(example("evm-delegation"));
    expect(groupKeysForTransaction(windows, t, buildTransferFacts(t, view()))).toEqual([]);
  });
});
