import { describe, expect, it } from "vitest";
import { parseTransaction } from "./parse.js";
import {
  SEP41_TOKEN,
  STELLAR_USDC,
  TX_NAME,
  USDC_ETH,
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
  type Body,
} from "./test-bodies.js";

function refusal(body: unknown): { code: string; message: string } {
  const result = parseTransaction(body);
  if (result.ok) throw new Error("expected the body to be refused");
  return { code: result.error.code, message: result.error.publicMessage };
}

describe("not a transaction (NOT_A_TRANSACTION)", () => {
  const cases: { what: string; body: unknown }[] = [
    { what: "null", body: null },
    { what: "a number", body: 5 },
    { what: "a string", body: "vaults/v/transactions/t" },
    { what: "an array", body: [{ name: TX_NAME }] },
    { what: "an empty object", body: {} },
    { what: "no name", body: { details: { assetTransfer: {} } } },
    { what: "a numeric name", body: { name: 5 } },
    { what: "an empty name", body: { name: "" } },
    { what: "a wallet name", body: { name: WALLET } },
    { what: "a name with a trailing slash", body: { name: `${TX_NAME}/` } },
    { what: "a name with a path segment too many", body: { name: "vaults/v/transactions/t/x" } },
    { what: "a name with a dot", body: { name: "vaults/v.1/transactions/t" } },
    { what: "a name with an over-long id", body: { name: `vaults/${"a".repeat(129)}/transactions/t` } },
    { what: "a name with a newline", body: { name: `${TX_NAME}\n` } },
    { what: "a wrapper around a non-object", body: { transaction: "x" } },
    { what: "a wrapper around null", body: { transaction: null } },
    { what: "a wrapper without a name", body: { transaction: { details: {} } } },
    { what: "a wrapper with a bad name", body: { transaction: { name: "vaults/v" } } },
    { what: "a named body that also wraps a transaction", body: { name: TX_NAME, transaction: { name: TX_NAME } } },
  ];
  it.each(cases)("$what", ({ body }) => {
    expect(refusal(body).code).toBe("NOT_A_TRANSACTION");
  });
});

describe("malformed amounts (INVALID_TRANSACTION, naming the path)", () => {
  const amounts: { what: string; amount: unknown }[] = [
    { what: "JSON number", amount: 5 },
    { what: "1e309", amount: "1e309" },
    { what: "negative", amount: "-5" },
    { what: "NaN", amount: "NaN" },
    { what: "Infinity", amount: "Infinity" },
    { what: "hex", amount: "0x10" },
    { what: "full-width digits", amount: "１２" },
    { what: "Arabic-Indic digits", amount: "١٢" },
    { what: "empty", amount: "" },
    { what: "leading dot", amount: ".5" },
    { what: "trailing dot", amount: "5." },
    { what: "spaces", amount: " 5" },
    { what: "comma", amount: "1,000" },
    { what: "plus sign", amount: "+5" },
    { what: "null", amount: null },
    { what: "missing", amount: undefined },
    { what: "boolean", amount: true },
    { what: "79 digits", amount: "9".repeat(79) },
  ];
  it.each(amounts)("details.assetTransfer.amount: $what", ({ amount }) => {
    expect(refusal(assetTransferBody({ amount }))).toMatchObject({
      code: "INVALID_TRANSACTION",
      message: expect.stringMatching(/^details\.assetTransfer\.amount: /),
    });
  });
  it.each(amounts.filter((a) => a.amount !== null && a.amount !== undefined))("transfers[0].amount: $what", ({ amount }) => {
    expect(refusal(apiBody([apiTransfer({ amount })]))).toMatchObject({
      code: "INVALID_TRANSACTION",
      message: expect.stringMatching(/^transfers\[0\]\.amount: /),
    });
  });
  it.each([...amounts, { what: "decimal", amount: "1.5" }])("Stellar rawAmount: $what", ({ amount }) => {
    expect(refusal(stellarBody([stellarPayment("1"), { payment: { destinationAddress: "G", asset: "X-G", rawAmount: amount } }]))).toMatchObject({
      code: "INVALID_TRANSACTION",
      message: expect.stringMatching(/^details\.stellarTransaction\.operations\[1\]\.body\.payment\.rawAmount: /),
    });
  });

  it("accepts 78 digits either side of the point", () => {
    expect(parseTransaction(assetTransferBody({ amount: `${"9".repeat(78)}.${"0".repeat(77)}1` })).ok).toBe(true);
  });
  it("never echoes the offending value", () => {
    const { message } = refusal(assetTransferBody({ amount: "SECRET-1e309" }));
    expect(message).not.toContain("SECRET");
  });
  it("names the path inside the wrapper", () => {
    expect(refusal({ transaction: assetTransferBody({ amount: "-1" }) }).message).toMatch(/^transaction\.details\.assetTransfer\.amount: /);
  });
});

describe("malformed transfers (INVALID_TRANSACTION)", () => {
  const cases: { what: string; body: Body; path: string }[] = [
    { what: "empty asset", body: assetTransferBody({ asset: "" }), path: "details.assetTransfer.asset" },
    { what: "missing asset", body: assetTransferBody({ asset: undefined }), path: "details.assetTransfer.asset" },
    { what: "numeric asset", body: assetTransferBody({ asset: 7 }), path: "details.assetTransfer.asset" },
    { what: "numeric destination", body: assetTransferBody({ destination: 12345 }), path: "details.assetTransfer.destination" },
    { what: "empty destination", body: assetTransferBody({ destination: "" }), path: "details.assetTransfer.destination" },
    { what: "missing source", body: assetTransferBody({ source: undefined }), path: "details.assetTransfer.source" },
    { what: "object sponsor", body: assetTransferBody({ sponsor: {} }), path: "details.assetTransfer.sponsor" },
    { what: "over-long destination", body: assetTransferBody({ destination: "x".repeat(513) }), path: "details.assetTransfer.destination" },
    { what: "assetTransfer not an object", body: { name: TX_NAME, details: { assetTransfer: "1 ETH" } }, path: "details.assetTransfer" },
    { what: "details not an object", body: { name: TX_NAME, details: [1] }, path: "details" },
    { what: "two kinds in details", body: { name: TX_NAME, details: { assetTransfer: {}, evmAccountDelegation: {} } }, path: "details" },
    { what: "a known and an unknown kind in details", body: { name: TX_NAME, details: { assetTransfer: {}, evmTransaction: {} } }, path: "details" },
    { what: "details beside transfers[]", body: { ...assetTransferBody(), transfers: [apiTransfer()] }, path: "transfers" },
    {
      what: "empty batch",
      body: { name: TX_NAME, details: { assetBatchTransfer: { asset: USDC_ETH, source: WALLET, destinations: [] } } },
      path: "details.assetBatchTransfer.destinations",
    },
    {
      what: "batch destination without amount",
      body: { name: TX_NAME, details: { assetBatchTransfer: { asset: USDC_ETH, source: WALLET, destinations: [{ destination: "0x1", amount: "1" }, { destination: "0x2" }] } } },
      path: "details.assetBatchTransfer.destinations[1].amount",
    },
    {
      what: "too many batch destinations",
      body: { name: TX_NAME, details: { assetBatchTransfer: { asset: USDC_ETH, source: WALLET, destinations: Array(1001).fill({ destination: "0x1", amount: "1" }) } } },
      path: "details.assetBatchTransfer.destinations",
    },
    { what: "API: empty asset", body: apiBody([apiTransfer({ asset: "" })]), path: "transfers[0].asset" },
    { what: "API: numeric destination", body: apiBody([apiTransfer({ destinationAddress: { value: 42 } })]), path: "transfers[0].destinationAddress.value" },
    { what: "API: missing destination", body: apiBody([apiTransfer({ destinationAddress: undefined })]), path: "transfers[0].destinationAddress" },
    { what: "API: destination a bare string", body: apiBody([apiTransfer({ destinationAddress: "0x1" })]), path: "transfers[0].destinationAddress" },
    {
      what: "API: no source and no request.sourceWallet",
      body: apiBody([apiTransfer({ sourceAddress: undefined })], { request: { initiator: "users/x" } }),
      path: "transfers[0].sourceAddress",
    },
    { what: "API: empty source", body: apiBody([apiTransfer({ sourceAddress: { value: "" } })]), path: "transfers[0].sourceAddress.value" },
    { what: "API: numeric source", body: apiBody([apiTransfer({ sourceAddress: { value: 1 } })]), path: "transfers[0].sourceAddress.value" },
    { what: "API: transfer not an object", body: apiBody([apiTransfer(), "x"]), path: "transfers[1]" },
    { what: "API: transfers not an array", body: apiBody([], { transfers: { 0: apiTransfer() } }), path: "transfers" },
    { what: "API: too many transfers", body: apiBody(Array(1001).fill(apiTransfer())), path: "transfers" },
    { what: "API: sourceWallet not a wallet", body: apiBody([apiTransfer()], { request: { sourceWallet: "0xabc" } }), path: "request.sourceWallet" },
    { what: "API: stellarTransaction not an object", body: apiBody([apiTransfer()], { stellarTransaction: "x" }), path: "stellarTransaction" },
    // The family's own object is read wherever it appears: an EVM transfer cannot carry a Stellar transaction along unread.
    { what: "API: an EVM transfer beside a Stellar transaction object", body: apiBody([apiTransfer()], { stellarTransaction: {} }), path: "(body)" },
    {
      what: "API: Stellar source account not a string",
      body: apiStellarBody([], [], { stellarTransaction: { sourceAccountAddress: { value: 3 } } }),
      path: "stellarTransaction.sourceAccountAddress.value",
    },
    { what: "Stellar: no operations", body: stellarBody([]), path: "details.stellarTransaction.operations" },
    { what: "Stellar: on another network", body: stellarBody([stellarPayment("1")], "networks/ethereum-mainnet"), path: "details.stellarTransaction.network" },
    { what: "Stellar: on a network spelt in capitals", body: stellarBody([stellarPayment("1")], "networks/Stellar-Mainnet"), path: "details.stellarTransaction.network" },
    { what: "Stellar: two bodies in one operation", body: stellarBody([{ ...stellarPayment("1"), changeTrust: {} }]), path: "details.stellarTransaction.operations[0].body" },
    { what: "Stellar: empty body", body: stellarBody([{}]), path: "details.stellarTransaction.operations[0].body" },
    {
      what: "Stellar: SEP-41 source differs from the operation's",
      body: stellarBody([{ sep41Payment: { destinationAddress: "G", sourceAddress: "GOTHER", contractAddress: "C", rawAmount: "1" } }]),
      path: "details.stellarTransaction.operations[0].body.sep41Payment.sourceAddress",
    },
    // A Stellar payment read as a movement of another chain's asset.
    {
      what: "Stellar: payment of another chain's asset",
      body: stellarBody([stellarPayment("1", "GDESTA", "assets/native.ethereum-mainnet")]),
      path: "details.stellarTransaction.operations[0].body.payment.asset",
    },
    {
      what: "Stellar: classic payment of a contract token",
      body: stellarBody([stellarPayment("1", "GDESTA", SEP41_TOKEN)]),
      path: "details.stellarTransaction.operations[0].body.payment.asset",
    },
    {
      what: "API: classic payment of a contract token",
      body: apiStellarBody([apiStellarPayment("1", "GDESTA", `assets/asset.stellar-mainnet.${SEP41_TOKEN}`)]),
      path: "stellarTransaction.operations[0].decodedBody.payment.asset",
    },
    {
      what: "API: Stellar payment of another chain's asset",
      body: apiStellarBody([apiStellarPayment("1", "GDESTA", USDC_ETH)]),
      path: "stellarTransaction.operations[0].decodedBody.payment.asset",
    },
    {
      what: "Stellar: SEP-41 without contract",
      body: stellarBody([{ sep41Payment: { destinationAddress: "G", rawAmount: "1" } }]),
      path: "details.stellarTransaction.operations[0].body.sep41Payment.contractAddress",
    },
    {
      // Without a network its USDC could not be named as the API names it: another asset, another velocity group.
      what: "API: Stellar transaction with no network anywhere",
      body: apiStellarBody([apiStellarPayment("10000000")], [], { network: undefined }),
      path: "network",
    },
    {
      // The network then comes from transfers[]: on another chain, the payment would be charged to that chain's asset.
      what: "API: Stellar transaction whose transfers[] name another chain's network",
      body: apiStellarBody([apiStellarPayment("10000000")], [apiStellarTransfer("1", { asset: `assets/asset.xrpl-mainnet.${STELLAR_USDC}` })], { network: undefined }),
      path: "network",
    },
    { what: "note not a string", body: assetTransferBody({}, { note: 5 }), path: "note" },
    { what: "state not a string", body: assetTransferBody({}, { state: ["AWAITING_SIGNATURE"] }), path: "state" },
    { what: "subType not a string", body: apiBody([], { subType: 1 }), path: "subType" },
    { what: "network not a string", body: apiBody([], { network: { id: "x" } }), path: "network" },
    { what: "externalId not a string", body: assetTransferBody({}, { externalId: 1 }), path: "externalId" },
    { what: "designatedSigners not an array", body: assetTransferBody({}, { designatedSigners: "users/a" }), path: "designatedSigners" },
    { what: "designatedSigners with a number", body: assetTransferBody({}, { designatedSigners: ["users/a", 2] }), path: "designatedSigners[1]" },
    { what: "request not an object", body: apiBody([], { request: "x" }), path: "request" },
    { what: "request.initiator not a string", body: apiBody([], { request: { initiator: 1 } }), path: "request.initiator" },
    { what: "note too long", body: assetTransferBody({}, { note: "n".repeat(10_001) }), path: "note" },
  ];
  it.each(cases)("$what → $path", ({ body, path }) => {
    const { code, message } = refusal(body);
    expect(code).toBe("INVALID_TRANSACTION");
    expect(message.startsWith(`${path}: `)).toBe(true);
  });
});

describe("never throws", () => {
  const hostile: unknown[] = [
    JSON.parse('{"name":"vaults/v/transactions/t","__proto__":{"details":{"assetTransfer":{}}}}'),
    JSON.parse('{"name":"vaults/v/transactions/t","details":{"__proto__":{"x":1}}}'),
    { name: TX_NAME, details: { stellarTransaction: { network: "n", sourceAddress: "s", operations: [{ sourceAccountAddress: "a", body: null }] } } },
    { name: TX_NAME, transfers: [null] },
    { name: TX_NAME, request: null, designatedSigners: null, details: null },
  ];
  it.each(hostile.map((body, i) => ({ i, body })))("hostile body %#", ({ body }) => {
    expect(() => parseTransaction(body)).not.toThrow();
  });
});

// go-ethereum reads `0X…` and the bare 40 digits as the 0x address,
// but rules, the address book and the windows compare only `0x…` without case, so a deny rule
// naming 0x5290… let `0X5290…` through and a per-destination window opened a fresh group.
describe("an EVM address spelt otherwise than 0x + 40 hex digits (INVALID_TRANSACTION)", () => {
  const EVM = "52908400098527886E0F7030069857D2E4169EE7";
  const cases: { what: string; body: Body; path: string }[] = [
    { what: "destination with 0X", body: assetTransferBody({ destination: `0X${EVM}` }), path: "details.assetTransfer.destination" },
    { what: "destination without a prefix", body: assetTransferBody({ destination: EVM.toLowerCase() }), path: "details.assetTransfer.destination" },
    { what: "source with 0X", body: assetTransferBody({ source: `0X${EVM}` }), path: "details.assetTransfer.source" },
    {
      what: "batch destination without a prefix",
      body: {
        name: TX_NAME,
        details: {
          assetBatchTransfer: {
            asset: USDC_ETH,
            source: WALLET,
            destinations: [
              { destination: `0x${EVM}`, amount: "1" },
              { destination: EVM, amount: "1" },
            ],
          },
        },
      },
      path: "details.assetBatchTransfer.destinations[1].destination",
    },
    { what: "API: destination with 0X", body: apiBody([apiTransfer({ destinationAddress: { value: `0X${EVM}` } })]), path: "transfers[0].destinationAddress.value" },
    { what: "API: source without a prefix", body: apiBody([apiTransfer({ sourceAddress: { value: EVM } })]), path: "transfers[0].sourceAddress" },
  ];
  it.each(cases)("$what → $path", ({ body, path }) => {
    const { code, message } = refusal(body);
    expect(code).toBe("INVALID_TRANSACTION");
    expect(message).toBe(`${path}: an EVM address must be written 0x and 40 hex digits`);
  });
  it("0x in either case of the digits is accepted", () => {
    expect(parseTransaction(assetTransferBody({ destination: `0x${EVM}` })).ok).toBe(true);
    expect(parseTransaction(assetTransferBody({ destination: `0x${EVM.toLowerCase()}` })).ok).toBe(true);
  });
});

// On an EVM network any other raw address is a spelling a
// client may resolve to an account (an ENS name; 32 bytes whose last 20 go-ethereum's HexToAddress
// keeps; an ICAP; an EIP-681 URI) while rules, the address book and the windows see other text: a
// deny rule naming 0x5290… let them through and each opened a per-destination window group.
describe("an EVM account in an authorization or a token allowance that is not 0x + 40 hex digits (INVALID_TRANSACTION)", () => {
  const EVM = "52908400098527886E0F7030069857D2E4169EE7";
  const spellings = [`0X${EVM}`, EVM, `0x000000000000000000000000${EVM}`, "drainer.eth"];
  const message = (path: string) => `${path}: an EVM address must be written 0x and 40 hex digits`;
  it.each(spellings)("%s as an allowance's spender or approver", (value) => {
    for (const field of ["spenderAddress", "approverAddress"]) {
      const body = example("api-shape-token-transfer-with-allowance");
      (body.tokenAllowances as Record<string, unknown>[])[0]![field] = { value };
      expect(refusal(body).message).toBe(message(`tokenAllowances[0].${field}.value`));
    }
  });
  it.each(spellings)("%s as a delegation's contract or signer (both shapes) or an authorization's", (value) => {
    const api = { ...example("evm-delegation"), evmAccountDelegation: { contractAddress: { value } } };
    expect(refusal(api).message).toBe(message("evmAccountDelegation.contractAddress.value"));
    const details = { name: "vaults/5c3f1a2b9d7e/transactions/d1", details: { evmAccountDelegation: { fromAddress: value, contractAddress: `0x${EVM}` } } };
    expect(refusal(details).message).toBe(message("details.evmAccountDelegation.fromAddress"));
    const authorized = { ...example("api-shape-token-transfer-evm") } as Record<string, Record<string, unknown>>;
    authorized.evmTransaction = { ...authorized.evmTransaction, authorizationDetails: { authorizationList: [{ contractAddress: { value }, chainId: "1" }] } };
    expect(refusal(authorized).message).toBe(message("evmTransaction.authorizationDetails.authorizationList[0].contractAddress.value"));
  });
  // Only an asset id naming an EVM network (or
  // an ERC-20) made the allowance an EVM one, so on an Ethereum transaction an allowance of
  // `assets/USDC`, or of no asset, kept its spender spelt 0X… past a deny rule naming it.
  it.each([
    ["an asset id that names no network", "assets/USDC"],
    ["no asset", undefined],
  ])("%s on an EVM transaction: the transaction's network decides", (_what, asset) => {
    for (const value of spellings) {
      const body = example("api-shape-token-transfer-with-allowance");
      const allowance = (body.tokenAllowances as Record<string, unknown>[])[0]!;
      if (asset === undefined) delete allowance.asset;
      else allowance.asset = asset;
      allowance.spenderAddress = { value };
      expect(refusal(body).message).toBe(message("tokenAllowances[0].spenderAddress.value"));
    }
  });
  it("an allowance of a token on another chain keeps its chain's spelling", () => {
    const body = example("api-shape-token-transfer-with-allowance");
    const allowance = (body.tokenAllowances as Record<string, unknown>[])[0]!;
    allowance.asset = "assets/native.near-mainnet";
    allowance.spenderAddress = { value: "treasury.near" };
    allowance.approverAddress = { value: "hot.near" };
    const result = parseTransaction(body);
    expect(result.ok ? "parsed" : result.error.publicMessage).not.toMatch(/must be written 0x/);
  });
});

// Only an EVM allowance's accounts were checked, so on Sui or
// Aptos a spender written short (`0xbad`, which their SDKs pad to 32 bytes) or `0X…` passed a deny
// rule naming the account as `0x` and 64 digits.
describe("a Sui or Aptos account in a token allowance that is not 0x + 64 hex digits (INVALID_TRANSACTION)", () => {
  const ACCOUNT = `${"0".repeat(61)}bad`;
  const SOURCE = `0x${"0".repeat(63)}a`;
  const spellings = ["0xbad", `0X${ACCOUNT}`, ACCOUNT, `0x0${ACCOUNT}`];
  const message = (path: string) => `${path}: a Sui or Aptos account must be written 0x and 64 hex digits`;
  const body = (network: string | null, asset: string | undefined, field: string, value: string): Body => {
    const allowance: Body = { approverAddress: { value: SOURCE }, spenderAddress: { value: `0x${ACCOUNT}` }, amount: "1", [field]: { value } };
    if (asset !== undefined) allowance.asset = asset;
    const transfer = apiTransfer({ sourceAddress: { value: SOURCE }, destinationAddress: { value: `0x${"0".repeat(63)}c` }, asset: `assets/native.${network ?? "sui-mainnet"}` });
    return apiBody([transfer], { network: network === null ? undefined : `networks/${network}`, subType: "NATIVE_TRANSFER", tokenAllowances: [allowance] });
  };
  it.each(spellings)("%s as an allowance's spender or approver on Sui or Aptos", (value) => {
    for (const network of ["sui-mainnet", "aptos-mainnet"]) {
      for (const field of ["spenderAddress", "approverAddress"]) {
        expect(refusal(body(network, `assets/native.${network}`, field, value)).message).toBe(message(`tokenAllowances[0].${field}.value`));
        // An asset id that names no network, or none at all: the transaction's network decides.
        expect(refusal(body(network, "assets/USDC", field, value)).message).toBe(message(`tokenAllowances[0].${field}.value`));
        expect(refusal(body(network, undefined, field, value)).message).toBe(message(`tokenAllowances[0].${field}.value`));
      }
    }
  });
  it("the account written 0x and 64 hex digits, in either case, is accepted", () => {
    for (const value of [`0x${ACCOUNT}`, `0x${ACCOUNT.toUpperCase()}`]) {
      expect(parseTransaction(body("sui-mainnet", "assets/native.sui-mainnet", "spenderAddress", value)).ok).toBe(true);
    }
  });
});

describe("a raw address on an EVM network that is not 0x + 40 hex digits (INVALID_TRANSACTION)", () => {
  const EVM = "52908400098527886E0F7030069857D2E4169EE7";
  const spellings = ["treasury.eth", `0x000000000000000000000000${EVM}`, "XE7338O073KYGTWWZN0F2WZ0R8PX5ZPPZS", `ethereum:0x${EVM}`, `0x${EVM}0`, `0x${EVM.slice(1)}`];
  const message = (path: string) => `${path}: an EVM address must be written 0x and 40 hex digits`;
  it.each(spellings)("%s as a token transfer's destination or source (shape 1)", (value) => {
    expect(refusal(assetTransferBody({ destination: value })).message).toBe(message("details.assetTransfer.destination"));
    expect(refusal(assetTransferBody({ source: value })).message).toBe(message("details.assetTransfer.source"));
  });
  it.each(spellings)("%s as an ETH transfer's destination or source (shape 2)", (value) => {
    const eth = { asset: "assets/native.ethereum-mainnet" };
    expect(refusal(apiBody([apiTransfer({ ...eth, destinationAddress: { value } })], { subType: "NATIVE_TRANSFER" })).message).toBe(
      message("transfers[0].destinationAddress.value"),
    );
    expect(refusal(apiBody([apiTransfer({ ...eth, sourceAddress: { value } })], { subType: "NATIVE_TRANSFER" })).message).toBe(message("transfers[0].sourceAddress"));
  });
  it("on every network of the EVM family, and for an opaque asset of a transaction on one", () => {
    for (const network of ["polygon-mainnet", "base-mainnet", "arbitrum-mainnet", "bsc-mainnet"]) {
      expect(refusal(assetTransferBody({ asset: `assets/native.${network}`, destination: "treasury.eth" })).code).toBe("INVALID_TRANSACTION");
    }
    expect(refusal(apiBody([apiTransfer({ asset: "assets/e72ff35a5b15", destinationAddress: { value: "treasury.eth" } })])).code).toBe("INVALID_TRANSACTION");
  });
  it("an ENS name, an ICAP or an ethereum: URI is refused where the network is unknown too (an opaque asset, no network)", () => {
    for (const value of ["treasury.eth", "Treasury.ETH", "XE7338O073KYGTWWZN0F2WZ0R8PX5ZPPZS", `ethereum:0x${EVM}`]) {
      expect(refusal(apiBody([apiTransfer({ asset: "assets/e72ff35a5b15", destinationAddress: { value } })], { network: undefined })).message).toBe(
        message("transfers[0].destinationAddress.value"),
      );
    }
  });
  it("another chain's addresses stay accepted on their own networks", () => {
    expect(parseTransaction(assetTransferBody({ asset: "assets/native.near-mainnet", destination: "treasury.near" })).ok).toBe(true);
    expect(parseTransaction(assetTransferBody({ asset: "assets/native.bitcoin-mainnet", destination: "bc1q3vfght7rln2c3733dl42navt8pslfya7talfns" })).ok).toBe(true);
    expect(parseTransaction(assetTransferBody({ asset: "assets/native.sui-mainnet", destination: `0x${"5c".repeat(32)}` })).ok).toBe(true);
  });
});

// A Sui or Aptos account (0x + 64 hex) compares without
// case, but `0X…` was compared as written, though Sui's SDK reads it as the 0x account: a deny rule
// naming 0x5c8f… let `0X5C8F…` through and a per-destination window opened a fresh group.
describe("a 32-byte hex account spelt 0X (INVALID_TRANSACTION)", () => {
  const SUI = "5c8f4b6e1d2a3f4e5d6c7b8a9f0e1d2c3b4a5f6e7d8c9bafe1d2c3b4a5f6e7d8";
  const SUI_COIN = "assets/native.sui-mainnet";
  it("destination with 0X", () => {
    const { code, message } = refusal(assetTransferBody({ asset: SUI_COIN, destination: `0X${SUI}` }));
    expect(code).toBe("INVALID_TRANSACTION");
    expect(message).toBe("details.assetTransfer.destination: a Sui or Aptos account must be written 0x and 64 hex digits");
  });
  it("API: destination with 0X", () => {
    const { message } = refusal(
      apiBody([apiTransfer({ asset: SUI_COIN, sourceAddress: { value: `0x${SUI}` }, destinationAddress: { value: `0X${SUI.toUpperCase()}` } })], {
        network: "networks/sui-mainnet",
      }),
    );
    expect(message).toBe("transfers[0].destinationAddress.value: a Sui or Aptos account must be written 0x and 64 hex digits");
  });
  it("0x in either case of the digits is accepted", () => {
    expect(parseTransaction(assetTransferBody({ asset: SUI_COIN, destination: `0x${SUI.toUpperCase()}` })).ok).toBe(true);
  });
});

// Sui's and Aptos's SDKs read `0xa` as `0x`, 63 zeros and `a`,
// but a deny rule naming the 64 digits did not see it, and it opened a per-destination window of its own.
describe("a Sui or Aptos account written short (INVALID_TRANSACTION)", () => {
  const SHORT = "0x5c8f";
  it.each([
    ["a destination on Sui", assetTransferBody({ asset: "assets/native.sui-mainnet", destination: SHORT }), "details.assetTransfer.destination"],
    [
      "a source on Aptos",
      apiBody([apiTransfer({ asset: "assets/native.aptos-mainnet", sourceAddress: { value: SHORT }, destinationAddress: { value: `0x${"5c".repeat(32)}` } })], {
        network: "networks/aptos-mainnet",
      }),
      "transfers[0].sourceAddress",
    ],
    [
      "a destination on Aptos, named by the transaction's network",
      apiBody([apiTransfer({ asset: "assets/e72ff35a5b15", sourceAddress: null, destinationAddress: { value: SHORT } })], { network: "networks/aptos-testnet" }),
      "transfers[0].destinationAddress.value",
    ],
  ])("%s", (_what, body, path) => {
    expect(refusal(body).message).toBe(`${path}: a Sui or Aptos account must be written 0x and 64 hex digits`);
  });
  it("elsewhere, 0x and a few hex digits stay a raw address", () => {
    expect(parseTransaction(assetTransferBody({ asset: "assets/native.near-mainnet", destination: SHORT })).ok).toBe(true);
  });
});

// polkadot-js takes an account as its 32-byte public key in
// hex, but a transfer's raw source or destination so written was compared as hex text: a deny rule
// naming Bob's SS58 account did not see `0x8eaf…`, and it opened a per-destination window of its own.
describe("a Tron account written other than base58 or 41-hex (INVALID_TRANSACTION)", () => {
  const HOT = "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8";
  const USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
  const HEX20 = "a614f803b6fd780986a42c78ec9c7f77e6ded13c";
  const message = (path: string) => `${path}: a Tron account must be written in base58 (T…) or as 41 and its 20 bytes in hex`;
  const api = (asset: string, destination: string): Body =>
    apiBody([apiTransfer({ asset, sourceAddress: { value: HOT }, destinationAddress: { value: destination } })], { network: "networks/tron-mainnet", subType: "TOKEN_TRANSFER" });
  it.each([`0x${HEX20}`, "treasury.trx", `T${HEX20}`])("%s as a TRX or TRC-20 destination", (destination) => {
    expect(refusal(api("assets/native.tron-mainnet", destination)).message).toBe(message("transfers[0].destinationAddress.value"));
    expect(refusal(api(`assets/trc20.tron-mainnet.${USDT}`, destination)).message).toBe(message("transfers[0].destinationAddress.value"));
    expect(refusal(assetTransferBody({ asset: "assets/native.tron-mainnet", source: HOT, destination })).message).toBe(message("details.assetTransfer.destination"));
  });
  it("an asset id naming the chain without its net (assets/native.tron) is still Tron's, and Ethereum's likewise", () => {
    expect(refusal(assetTransferBody({ asset: "assets/native.tron", source: HOT, destination: `0x${HEX20}` })).message).toBe(message("details.assetTransfer.destination"));
    expect(refusal(assetTransferBody({ asset: "assets/native.ethereum", destination: "treasury.eth" })).message).toBe(
      "details.assetTransfer.destination: an EVM address must be written 0x and 40 hex digits",
    );
  });
  it("base58 and 41-hex are accepted", () => {
    expect(parseTransaction(api("assets/native.tron-mainnet", USDT)).ok).toBe(true);
    expect(parseTransaction(api("assets/native.tron-mainnet", `41${HEX20}`)).ok).toBe(true);
  });
});

describe("a Substrate account written as its public key in hex (INVALID_TRANSACTION)", () => {
  const ALICE = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY";
  const BOB = "5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty";
  const BOB_KEY = "0x8eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a48";
  const message = (path: string) => `${path}: a Substrate account must be written in SS58, not as its public key in hex`;
  const api = (network: string | undefined, asset: string, source: string, destination: string): Body =>
    apiBody([apiTransfer({ asset, sourceAddress: { value: source }, destinationAddress: { value: destination } })], {
      network: network === undefined ? undefined : `networks/${network}`,
      subType: "NATIVE_TRANSFER",
    });
  it.each([
    ["polkadot-mainnet", "assets/native.polkadot-mainnet"],
    ["kusama-mainnet", "assets/native.kusama-mainnet"],
    ["westend-testnet", "assets/native.westend-testnet"],
    // An asset id that names no network: the transaction's network decides.
    ["polkadot-mainnet", "assets/DOT"],
  ])("on %s (%s), a destination or source written as the key is refused", (network, asset) => {
    expect(refusal(api(network, asset, ALICE, BOB_KEY)).message).toBe(message("transfers[0].destinationAddress.value"));
    expect(refusal(api(network, asset, BOB_KEY, ALICE)).message).toBe(message("transfers[0].sourceAddress"));
    expect(refusal(api(network, asset, ALICE, BOB_KEY.toUpperCase().replace("0X", "0x"))).message).toBe(message("transfers[0].destinationAddress.value"));
  });
  it("shape 1: the asset's network decides, and a substrate asset is one", () => {
    expect(refusal(assetTransferBody({ asset: "assets/native.polkadot-mainnet", destination: BOB_KEY })).message).toBe(message("details.assetTransfer.destination"));
    expect(refusal(assetTransferBody({ asset: "assets/substrate.polkadot-asset-hub.1984", destination: BOB_KEY })).message).toBe(message("details.assetTransfer.destination"));
  });
  it("SS58 under any prefix is accepted; 32 bytes of hex elsewhere keep their chain's meaning", () => {
    expect(parseTransaction(api("polkadot-mainnet", "assets/native.polkadot-mainnet", ALICE, BOB)).ok).toBe(true);
    expect(parseTransaction(assetTransferBody({ asset: "assets/native.sui-mainnet", destination: `0x${BOB_KEY.slice(2)}`, source: WALLET })).ok).toBe(true);
  });
});
