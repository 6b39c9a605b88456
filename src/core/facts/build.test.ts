import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { notConfiguredView, type AddressBookView, type OwnWalletAddress } from "../addressbook/types.js";
import type { WindowSpec } from "../policy/types.js";
import { EVM_DEST, USDC_ETH, VAULT, WALLET, apiBody, apiTransfer, assetTransferBody, example, stellarBody, stellarPayment } from "../transaction/test-bodies.js";
import { buildFacts } from "./build.js";
import { tx, view } from "./test-views.js";
import type { Facts } from "./types.js";

const NOW = new Date("2026-11-21T12:00:00.456Z");
const NO_TOTALS = new Map();

function facts(body: unknown, addressBook: AddressBookView = view(), windows: WindowSpec[] = []): Facts[] {
  return buildFacts({ tx: tx(body), now: NOW, addressBook, windows, totals: NO_TOTALS });
}
const only = (all: Facts[]): Facts => {
  expect(all).toHaveLength(1);
  return all[0] as Facts;
};

describe("buildFacts: the whole document", () => {
  it("asset-transfer example, destination in the address book", () => {
    const book = view({ entries: [{ address: "0x52908400098527886e0f7030069857d2e4169ee7", displayName: "Exchange" }] });
    const daily: WindowSpec = { name: "daily_out", duration: "24h", durationSeconds: 86_400, groupBy: ["sourceWallet", "asset"], measure: "amount" };
    expect(only(facts(example("asset-transfer"), book, [daily]))).toEqual({
      now: "2026-11-21T12:00:00Z",
      nowHour: 12,
      nowWeekday: 6,
      tx: {
        name: `${VAULT}/transactions/0f9e8d7c6b5a`,
        vault: VAULT,
        id: "0f9e8d7c6b5a",
        kind: "assetTransfer",
        type: null,
        subType: null,
        state: "AWAITING_SIGNATURE",
        network: null,
        note: "Weekly settlement to exchange",
        externalId: "settle-2026-11-21-001",
        requestId: "6b1d2c9e-4f3a-4c1b-9a0e-2d7f5e8c1b3a",
        initiator: null,
        designatedSigners: ["users/policy-bot@treasury.example"],
        transferCount: 1,
        payloads: [],
        tokenAllowances: [],
        authorizations: [],
        memo: null,
        fee: null,
        usd: null,
        feeUsd: null,
      },
      transfer: {
        index: 0,
        network: "ethereum-mainnet",
        asset: "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
        assetAsGiven: "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
        assetStandard: "erc20",
        amount: "2500.125",
        rawAmount: null,
        assetTotal: "2500.125",
        usdPrice: null,
        usd: null,
        source: { value: WALLET, kind: "wallet", wallet: WALLET, address: null, internal: true, muxedId: null, baseAccount: null },
        destination: {
          value: EVM_DEST,
          kind: "address",
          wallet: null,
          address: EVM_DEST.toLowerCase(),
          internal: false,
          muxedId: null,
          baseAccount: EVM_DEST.toLowerCase(),
          inAddressBook: true,
          addressBook: {
            name: `${VAULT}/addressBookEntries/e0`,
            displayName: "Exchange",
            address: "0x52908400098527886e0f7030069857d2e4169ee7",
            network: "ethereum-mainnet",
            signed: true,
          },
        },
        sponsor: `${VAULT}/wallets/gas0001`,
      },
      velocity: { daily_out: { amount: "0", count: 0, amountAfter: "2500.125", countAfter: 1 } },
      addressBook: { configured: true, syncedAt: "2026-11-21T11:59:00.000Z", ageSeconds: 60 },
      review: { state: "none", approvals: 0, approvers: [] },
    });
  });

  it("a transaction without transfers is one document with transfer null and no velocity", () => {
    const daily: WindowSpec = { name: "d", duration: "1d", durationSeconds: 86_400, groupBy: ["sourceWallet"], measure: "count" };
    const f = only(facts(example("evm-delegation"), view(), [daily]));
    expect(f).toMatchObject({ transfer: null, velocity: {}, tx: { kind: "evmAccountDelegation", transferCount: 0, subType: "EVM_ACCOUNT_DELEGATION" } });
  });

  it("one document per transfer, in order", () => {
    const all = facts(example("stellar-two-payments"));
    expect(all.map((f) => [f.transfer?.index, f.transfer?.amount, f.tx.transferCount])).toEqual([
      [0, "1.2345678", 2],
      [1, null, 2],
    ]);
  });

  it("assetTotal: what the whole transaction moves of each transfer's asset, however spelt; unknown when one amount is", () => {
    const usdcUpper = USDC_ETH.replace(/0x[0-9a-f]+$/, (contract) => `0x${contract.slice(2).toUpperCase()}`);
    const batch = apiBody([apiTransfer({ amount: "3" }), apiTransfer({ amount: "2.5", asset: usdcUpper }), apiTransfer({ amount: "1", asset: "assets/native.ethereum-mainnet" })], {
      subType: "BATCH_TRANSFER",
    });
    expect(facts(batch).map((f) => [f.transfer?.amount, f.transfer?.assetTotal])).toEqual([
      ["3", "5.5"],
      ["2.5", "5.5"],
      ["1", "1"],
    ]);
    // A SEP-41 payment has no whole-unit amount: its asset's total is unknown, the other asset's is not.
    expect(facts(example("stellar-two-payments")).map((f) => [f.transfer?.amount, f.transfer?.assetTotal])).toEqual([
      ["1.2345678", "1.2345678"],
      [null, null],
    ]);
    const twoOfOne = stellarBody([stellarPayment("1"), stellarPayment("2")]);
    expect(facts(twoOfOne).map((f) => f.transfer?.assetTotal)).toEqual(["0.0000003", "0.0000003"]);
  });

  it("assetTotal is never below a transfer's own amount, so a threshold on it refuses at least what one on amount did", () => {
    const leg = fc.record({ amount: fc.integer({ min: 0, max: 10 ** 9 }).map((n) => (n / 1000).toString()), usdc: fc.boolean() });
    fc.assert(
      fc.property(fc.array(leg, { minLength: 1, maxLength: 6 }), (legs) => {
        const body = apiBody(
          legs.map((l) => apiTransfer({ amount: l.amount, asset: l.usdc ? USDC_ETH : "assets/native.ethereum-mainnet" })),
          { subType: "BATCH_TRANSFER" },
        );
        for (const f of facts(body)) expect(Number(f.transfer!.assetTotal)).toBeGreaterThanOrEqual(Number(f.transfer!.amount));
      }),
    );
  });

  it("is JSON through and through (stored verbatim in the audit row)", () => {
    const all = facts(example("api-shape-token-transfer"));
    expect(JSON.parse(JSON.stringify(all))).toEqual(all);
  });
});

describe("time facts (UTC)", () => {
  const cases: { now: string; iso: string; hour: number; weekday: number }[] = [
    { now: "2026-11-22T00:00:00.000Z", iso: "2026-11-22T00:00:00Z", hour: 0, weekday: 0 },
    { now: "2026-11-21T23:59:59.999Z", iso: "2026-11-21T23:59:59Z", hour: 23, weekday: 6 },
    { now: "2026-11-23T09:30:00+02:00", iso: "2026-11-23T07:30:00Z", hour: 7, weekday: 1 },
  ];
  it.each(cases)("$now", ({ now, iso, hour, weekday }) => {
    const [f] = buildFacts({ tx: tx(assetTransferBody()), now: new Date(now), addressBook: view(), windows: [], totals: NO_TOTALS });
    expect(f).toMatchObject({ now: iso, nowHour: hour, nowWeekday: weekday });
  });
});

describe("address-book matching of the destination", () => {
  const checksummed = "0x52908400098527886E0F7030069857D2E4169EE7";
  const lower = checksummed.toLowerCase();
  const sol = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
  const xlm = "GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN";
  const eth = "assets/native.ethereum-mainnet";
  const cases: { what: string; destination: string; asset: string; entry: { address: string; network: string; signed?: boolean | null }; inBook: boolean }[] = [
    { what: "EVM checksummed vs lower-case entry", destination: checksummed, asset: eth, entry: { address: lower, network: "ethereum-mainnet" }, inBook: true },
    { what: "EVM lower-case vs checksummed entry", destination: lower, asset: eth, entry: { address: checksummed, network: "ethereum-mainnet" }, inBook: true },
    { what: "EVM on the wrong network", destination: checksummed, asset: eth, entry: { address: checksummed, network: "polygon-mainnet" }, inBook: false },
    { what: "entry network with networks/ prefix", destination: checksummed, asset: eth, entry: { address: checksummed, network: "networks/ethereum-mainnet" }, inBook: true },
    { what: "Solana exact", destination: sol, asset: "assets/native.solana-mainnet", entry: { address: sol, network: "solana-mainnet" }, inBook: true },
    { what: "Solana other case", destination: sol, asset: "assets/native.solana-mainnet", entry: { address: sol.toLowerCase(), network: "solana-mainnet" }, inBook: false },
    { what: "Stellar exact", destination: xlm, asset: "assets/native.stellar-mainnet", entry: { address: xlm, network: "stellar-mainnet" }, inBook: true },
    { what: "Stellar other case", destination: xlm, asset: "assets/native.stellar-mainnet", entry: { address: xlm.toLowerCase(), network: "stellar-mainnet" }, inBook: false },
    {
      what: "Tron in hex vs base58 entry",
      destination: "41A614F803B6FD780986A42C78EC9C7F77E6DED13C",
      asset: "assets/native.tron-mainnet",
      entry: { address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", network: "tron-mainnet" },
      inBook: true,
    },
    {
      what: "TON raw vs non-bounceable entry",
      destination: "0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8",
      asset: "assets/native.ton-mainnet",
      entry: { address: "UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI", network: "ton-mainnet" },
      inBook: true,
    },
    {
      what: "an asset's network in capitals vs the entry's",
      destination: checksummed,
      asset: "assets/NATIVE.Ethereum-Mainnet",
      entry: { address: checksummed, network: "ethereum-mainnet" },
      inBook: true,
    },
    {
      what: "XRP X-address without a tag vs its classic entry",
      destination: "XVLhHMPHU98es4dbozjVtdWzVrDjtV5fdx1mHp98tDMoQXb",
      asset: "assets/native.xrpl-mainnet",
      entry: { address: "rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf", network: "xrpl-mainnet" },
      inBook: true,
    },
    // A tag names the receiver's sub-account (an exchange's customer): trust stays exact, as for a Stellar muxed address.
    {
      what: "XRP X-address with a tag vs its classic entry",
      destination: "XVLhHMPHU98es4dbozjVtdWzVrDjtV8xvjGQTYPiAx6gwDC",
      asset: "assets/native.xrpl-mainnet",
      entry: { address: "rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf", network: "xrpl-mainnet" },
      inBook: false,
    },
    { what: "signed: false does not count", destination: checksummed, asset: eth, entry: { address: checksummed, network: "ethereum-mainnet", signed: false }, inBook: false },
    // The API's JSON may leave a false boolean out: no `signed` is not taken as approval.
    { what: "signed: null does not count", destination: checksummed, asset: eth, entry: { address: checksummed, network: "ethereum-mainnet", signed: null }, inBook: false },
    { what: "another address", destination: checksummed, asset: eth, entry: { address: "0x1111111111111111111111111111111111111111", network: "ethereum-mainnet" }, inBook: false },
    {
      what: "unknown network (opaque asset id, no tx network)",
      destination: checksummed,
      asset: "assets/e72ff35a5b15",
      entry: { address: checksummed, network: "ethereum-mainnet" },
      inBook: false,
    },
  ];
  it.each(cases)("$what → $inBook", ({ destination, asset, entry, inBook }) => {
    const f = only(facts(assetTransferBody({ destination, asset }), view({ entries: [entry] })));
    expect(f.transfer?.destination.inAddressBook).toBe(inBook);
    expect(f.transfer?.destination.addressBook?.address ?? null).toBe(inBook ? entry.address : null);
  });

  // A rule on transfer.network or transfer.assetStandard missed ETH spelt assets/NATIVE.Ethereum-Mainnet.
  it("an asset's standard and network in capitals are read as the lower-case ones", () => {
    const f = only(facts(assetTransferBody({ destination: checksummed, asset: "assets/NATIVE.Ethereum-Mainnet" })));
    expect(f.transfer).toMatchObject({
      network: "ethereum-mainnet",
      assetStandard: "native",
      asset: "assets/native.ethereum-mainnet",
      assetAsGiven: "assets/NATIVE.Ethereum-Mainnet",
    });
    const usdc = only(facts(assetTransferBody({ asset: USDC_ETH.replace("erc20.ethereum-mainnet", "ERC20.ETHEREUM-MAINNET") })));
    expect(usdc.transfer).toMatchObject({ network: "ethereum-mainnet", assetStandard: "erc20" });
  });

  it.each([
    ["an EVM address in checksum case", "0x52908400098527886E0F7030069857D2E4169EE7", "assets/native.ethereum-mainnet", "0x52908400098527886e0f7030069857d2e4169ee7"],
    [
      "a TON account non-bounceable",
      "UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI",
      "assets/native.ton-mainnet",
      "0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8",
    ],
    ["a Tron address in hex", "41A614F803B6FD780986A42C78EC9C7F77E6DED13C", "assets/native.tron-mainnet", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"],
    [
      "a Substrate account under Polkadot's prefix",
      "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5",
      "assets/native.polkadot-mainnet",
      "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY",
    ],
    ["an XRP X-address without a tag", "XVLhHMPHU98es4dbozjVtdWzVrDjtV5fdx1mHp98tDMoQXb", "assets/native.xrpl-mainnet", "rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf"],
  ])("%s is read once into its canonical spelling: value keeps it as given", (_what, destination, asset, canonical) => {
    const d = only(facts(assetTransferBody({ destination, asset }))).transfer?.destination;
    expect(d).toMatchObject({ value: destination, address: canonical, baseAccount: canonical });
  });

  it("a sub-account keeps its own address; baseAccount is the account its payments land in", () => {
    const xrp = only(facts(assetTransferBody({ destination: "XVLhHMPHU98es4dbozjVtdWzVrDjtVFpRb8iCFUkMtRyVii", asset: "assets/native.xrpl-mainnet" }))).transfer?.destination;
    expect(xrp).toMatchObject({ address: "XVLhHMPHU98es4dbozjVtdWzVrDjtVFpRb8iCFUkMtRyVii", baseAccount: "rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf", muxedId: "12345" });
  });

  // A rule naming an XRP account catches its X-addresses, so the tag must be a fact a rule can pin.
  it("an XRP X-address's tag is the destination's muxedId; one without a tag has none", () => {
    const xrp = (destination: string) => only(facts(assetTransferBody({ destination, asset: "assets/native.xrpl-mainnet" }))).transfer?.destination;
    expect(xrp("XVLhHMPHU98es4dbozjVtdWzVrDjtVFpRb8iCFUkMtRyVii")).toMatchObject({ muxedId: "12345", address: "XVLhHMPHU98es4dbozjVtdWzVrDjtVFpRb8iCFUkMtRyVii" });
    expect(xrp("XVLhHMPHU98es4dbozjVtdWzVrDjtV5fdx1mHp98tDMoQXb")?.muxedId).toBeNull();
    expect(xrp("rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf")?.muxedId).toBeNull();
  });

  it("an unsigned entry does not hide a signed one for the same address", () => {
    const entries = [
      { address: checksummed, network: "ethereum-mainnet", signed: false, displayName: "pending" },
      { address: lower, network: "ethereum-mainnet", signed: true, displayName: "approved" },
    ];
    const f = only(facts(assetTransferBody({ destination: checksummed, asset: eth }), view({ entries })));
    expect(f.transfer?.destination.addressBook?.displayName).toBe("approved");
  });

  it("a wallet destination is never an address-book entry", () => {
    const f = only(facts(assetTransferBody({ destination: `${VAULT}/wallets/w2` }), view({ entries: [{ address: `${VAULT}/wallets/w2` }] })));
    expect(f.transfer?.destination).toMatchObject({ inAddressBook: false, addressBook: null, internal: true });
  });

  it("a view of another vault is not used", () => {
    const other = view({ vault: "vaults/other", entries: [{ address: checksummed }] });
    const f = only(facts(assetTransferBody({ destination: checksummed, asset: eth }), other));
    expect(f.transfer?.destination.inAddressBook).toBe(false);
    expect(f.addressBook).toEqual({ configured: false, syncedAt: null, ageSeconds: null });
  });

  it("a view naming the vault by its bare id is this vault's", () => {
    const bare = view({ vault: VAULT.slice("vaults/".length), entries: [{ address: checksummed }] });
    expect(only(facts(assetTransferBody({ destination: checksummed, asset: eth }), bare)).transfer?.destination.inAddressBook).toBe(true);
  });
});

describe("internal endpoints", () => {
  const ownEth: OwnWalletAddress = {
    wallet: `${VAULT}/wallets/hot`,
    walletAddress: `${VAULT}/wallets/hot/addresses/a1`,
    address: "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    network: "ethereum-mainnet",
  };
  const foreignOwn: OwnWalletAddress = {
    wallet: "vaults/other/wallets/x",
    walletAddress: null,
    address: "0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
    network: "ethereum-mainnet",
  };
  const cases: { what: string; destination: string; internal: boolean; wallet: string | null }[] = [
    { what: "a wallet of the same vault", destination: `${VAULT}/wallets/w2`, internal: true, wallet: `${VAULT}/wallets/w2` },
    { what: "a wallet address of the same vault", destination: `${VAULT}/wallets/w2/addresses/a9`, internal: true, wallet: `${VAULT}/wallets/w2` },
    { what: "a wallet of another vault", destination: "vaults/other/wallets/w2", internal: false, wallet: "vaults/other/wallets/w2" },
    { what: "a wallet address of another vault", destination: "vaults/other/wallets/w2/addresses/a9", internal: false, wallet: "vaults/other/wallets/w2" },
    { what: "a raw address of an own wallet (other case)", destination: "0xAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", internal: true, wallet: `${VAULT}/wallets/hot` },
    { what: "a raw address of another vault's wallet", destination: foreignOwn.address, internal: false, wallet: null },
    { what: "an outside raw address", destination: EVM_DEST, internal: false, wallet: null },
  ];
  it.each(cases)("destination: $what", ({ destination, internal, wallet }) => {
    const f = only(facts(assetTransferBody({ destination, asset: "assets/native.ethereum-mainnet" }), view({ own: [ownEth, foreignOwn] })));
    expect(f.transfer?.destination).toMatchObject({ internal, wallet });
  });

  it("an own wallet's raw address on another network is not internal", () => {
    const f = only(facts(assetTransferBody({ destination: ownEth.address, asset: "assets/native.polygon-mainnet" }), view({ own: [ownEth] })));
    expect(f.transfer?.destination).toMatchObject({ internal: false, wallet: null });
  });

  it("API shape: the raw source of an own wallet, and request.sourceWallet", () => {
    const body = apiBody([apiTransfer({ sourceAddress: { value: ownEth.address }, asset: "assets/native.ethereum-mainnet" })], { request: {} });
    expect(only(facts(body, view({ own: [ownEth] }))).transfer?.source).toMatchObject({ internal: true, wallet: ownEth.wallet, kind: "address" });
    expect(only(facts(apiBody([apiTransfer()]), view())).transfer?.source).toMatchObject({ internal: true, wallet: WALLET, kind: "address" });
    expect(only(facts(apiBody([apiTransfer()], { request: {} }), view())).transfer?.source).toMatchObject({ internal: false, wallet: null });
  });

  describe("external wallets of the vault (tracked, not controlled by the platform)", () => {
    const tracked = `${VAULT}/wallets/tracked`;
    const eth = "assets/native.ethereum-mainnet";
    const synced = view({ external: [tracked] });
    const cases: { what: string; destination: string; book: AddressBookView; internal: boolean }[] = [
      { what: "its wallet name, synced copy lists it external", destination: tracked, book: synced, internal: false },
      { what: "one of its wallet-address names, synced copy lists it external", destination: `${tracked}/addresses/a1`, book: synced, internal: false },
      { what: "another wallet of the vault beside an external one", destination: `${VAULT}/wallets/w2`, book: synced, internal: true },
      { what: "its wallet name, copy without external wallets", destination: tracked, book: view({ external: [] }), internal: true },
      { what: "its wallet name, copy that does not know (policy test case)", destination: tracked, book: view(), internal: true },
      { what: "its wallet name, sync not configured", destination: tracked, book: notConfiguredView(VAULT), internal: true },
      { what: "a same-named wallet of another vault listed external", destination: tracked, book: view({ external: ["vaults/other/wallets/tracked"] }), internal: true },
    ];
    it.each(cases)("destination: $what → internal $internal", ({ destination, book, internal }) => {
      const f = only(facts(assetTransferBody({ destination, asset: eth }), book));
      expect(f.transfer?.destination.internal).toBe(internal);
    });

    it("an external source wallet is not internal either (reference shape and request.sourceWallet)", () => {
      expect(only(facts(assetTransferBody({ source: tracked, destination: `${VAULT}/wallets/w2` }), synced)).transfer?.source).toMatchObject({
        wallet: tracked,
        internal: false,
      });
      const api = apiBody([apiTransfer({ asset: eth })], { request: { sourceWallet: tracked } });
      expect(only(facts(api, synced)).transfer?.source).toMatchObject({ wallet: tracked, internal: false });
      expect(only(facts(api, view())).transfer?.source).toMatchObject({ wallet: tracked, internal: true });
    });

    it("an own raw address listed under an external wallet is not internal", () => {
      const own: OwnWalletAddress = { wallet: tracked, walletAddress: null, address: "0xcccccccccccccccccccccccccccccccccccccccc", network: "ethereum-mainnet" };
      const f = only(facts(assetTransferBody({ destination: own.address, asset: eth }), view({ own: [own], external: [tracked] })));
      expect(f.transfer?.destination).toMatchObject({ wallet: tracked, internal: false });
    });
  });

  it("sponsor as given", () => {
    const [first] = facts(stellarBody([stellarPayment("1")]));
    expect(first?.transfer?.sponsor).toBe("GSPONSORXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX");
  });
});

describe("addressBook freshness facts", () => {
  const cases: { what: string; view: AddressBookView; expected: Facts["addressBook"] }[] = [
    { what: "never synced", view: view({ syncedAt: null }), expected: { configured: true, syncedAt: null, ageSeconds: null } },
    { what: "synced 90.9 s ago", view: view({ syncedAt: new Date(NOW.getTime() - 90_900) }), expected: { configured: true, syncedAt: "2026-11-21T11:58:29.556Z", ageSeconds: 90 } },
    {
      what: "stamped in the future",
      view: view({ syncedAt: new Date(NOW.getTime() + 5_000) }),
      expected: { configured: true, syncedAt: "2026-11-21T12:00:05.456Z", ageSeconds: 0 },
    },
    { what: "not configured", view: notConfiguredView(VAULT), expected: { configured: false, syncedAt: null, ageSeconds: null } },
  ];
  it.each(cases)("$what", ({ view: v, expected }) => {
    expect(only(facts(assetTransferBody(), v)).addressBook).toEqual(expected);
  });
});

describe("internal wallet names with a synced copy that lists the vault's wallets", () => {
  const known = `${VAULT}/wallets/known`;
  const synced = { ...view({ external: [`${VAULT}/wallets/tracked`] }), wallets: [known] };
  const eth = "assets/native.ethereum-mainnet";
  it.each([
    { what: "a wallet the copy lists", destination: known, internal: true },
    { what: "a wallet-address name of a wallet the copy lists", destination: `${known}/addresses/a1`, internal: true },
    { what: "a wallet name the copy does not know", destination: `${VAULT}/wallets/unknown`, internal: false },
    { what: "a wallet the copy lists as external", destination: `${VAULT}/wallets/tracked`, internal: false },
  ])("destination: $what → internal $internal", ({ destination, internal }) => {
    expect(only(facts(assetTransferBody({ destination, asset: eth }), synced)).transfer?.destination.internal).toBe(internal);
  });

  it("an unknown source wallet is not internal either", () => {
    const f = only(facts(assetTransferBody({ source: `${VAULT}/wallets/unknown`, destination: known, asset: eth }), synced));
    expect(f.transfer?.source).toMatchObject({ wallet: `${VAULT}/wallets/unknown`, internal: false });
  });
});

describe("Bitcoin change is the vault's only where the synced copy says so", () => {
  const BTC_DEST = "bc1qdestxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
  const CHANGE = "bc1qchangexxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
  const btcBody = (change: Record<string, unknown>) =>
    apiBody([{ destinationAddress: { value: BTC_DEST }, amount: "0.01", asset: "assets/native.bitcoin-mainnet" }], {
      subType: "BTC_TRANSFER",
      network: "networks/bitcoin-mainnet",
      btcTransaction: {
        outputs: [
          { address: { value: BTC_DEST }, amount: "0.01" },
          { amount: "25", change: true, ...change },
        ],
      },
    });
  const own = (wallet: string, address = CHANGE): OwnWalletAddress => ({ wallet, walletAddress: null, address, network: "bitcoin-mainnet" });

  it("change to an address of the vault's own wallets keeps the transfer plain", () => {
    const doc = only(facts(btcBody({ address: { value: CHANGE } }), view({ own: [own(WALLET)] })));
    expect(doc.tx).toMatchObject({ kind: "assetTransfer", payloads: [] });
  });

  it("change to an address the copy does not know as the vault's — or with no copy, or another vault's — is the payload btcOutputs", () => {
    for (const book of [view(), view({ own: [own("vaults/other/wallets/w")] }), view({ own: [own(WALLET, "bc1qsomethingelse")] }), notConfiguredView(VAULT)]) {
      const doc = only(facts(btcBody({ address: { value: CHANGE } }), book));
      expect(doc.tx).toMatchObject({ kind: "unknown", payloads: ["btcOutputs"] });
    }
  });

  it("inputs must be the source wallet's own addresses in the copy; else the payload btcInputs", () => {
    const spending = (inputs: unknown[]) =>
      apiBody([{ destinationAddress: { value: BTC_DEST }, amount: "0.01", asset: "assets/native.bitcoin-mainnet" }], {
        subType: "BTC_TRANSFER",
        network: "networks/bitcoin-mainnet",
        btcTransaction: { inputs, outputs: [{ address: { value: BTC_DEST }, amount: "0.01" }] },
      });
    const INPUT = "bc1qinputofthesourcewallet";
    expect(only(facts(spending([{ address: { value: INPUT }, amount: "0.02" }]), view({ own: [own(WALLET, INPUT)] }))).tx).toMatchObject({ kind: "assetTransfer", payloads: [] });
    for (const book of [view(), view({ own: [own(`${VAULT}/wallets/cold`, INPUT)] }), notConfiguredView(VAULT)]) {
      expect(only(facts(spending([{ address: { value: INPUT }, amount: "0.02" }]), book)).tx).toMatchObject({ kind: "unknown", payloads: ["btcInputs"] });
    }
    // An input that names no address cannot be shown to be the source's.
    expect(tx(spending([{ amount: "0.02" }])).payloads).toEqual(["btcInputs"]);
  });

  it("change that names no address cannot be shown to stay: btcOutputs whatever the copy", () => {
    expect(tx(btcBody({})).payloads).toEqual(["btcOutputs"]);
    expect(only(facts(btcBody({}), view({ own: [own(WALLET)] }))).tx.kind).toBe("unknown");
  });
});
