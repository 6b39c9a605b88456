/**
 * At the parser: payloads fail closed, Stellar operations in both shapes, kind
 * confusion, request.sourceWallet, the short source form and resource names. Each case here was
 * read as a plain transfer (or accepted) before the field classification table.
 */
import { describe, expect, it } from "vitest";
import { parseTransaction } from "./parse.js";
import {
  EVM_DEST,
  SEP41_TOKEN,
  STELLAR_SENDER,
  STELLAR_USDC,
  TX_NAME,
  USDC_ETH,
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
  type Body,
  parsed,
} from "./test-bodies.js";
import type { Transaction } from "./types.js";

function refused(body: unknown): string {
  const result = parseTransaction(body);
  if (result.ok) throw new Error(`expected a refusal, got kind ${result.value.kind} payloads ${JSON.stringify(result.value.payloads)}`);
  expect(result.error.code).toBe("INVALID_TRANSACTION");
  return result.error.publicMessage;
}

const FROM = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const USDC_CONTRACT = "0xA0b86991c6218b36c1d19d4a2e9eB0cE3606eB48";
const word = (hex: string) => hex.replace(/^0x/, "").toLowerCase().padStart(64, "0");
const erc20Transfer = (to: string, raw: bigint) => `0xa9059cbb${word(to)}${word(raw.toString(16))}`;
const erc20Approve = (spender: string, raw: bigint) => `0x095ea7b3${word(spender)}${word(raw.toString(16))}`;
/** The API's USDC transfer of 1 (6 decimals) with the given evmTransaction. */
const usdcWith = (evmTransaction: Body, top: Body = {}) =>
  apiBody([apiTransfer({ amount: "1" })], { evmTransaction: { fromAddress: { value: FROM }, toAddress: { value: USDC_CONTRACT }, value: "0", ...evmTransaction }, ...top });

describe("a Stellar transaction's decoded operations (API shape)", () => {
  it("derives the transfers from the operations and checks transfers[] against them", () => {
    const tx = parsed(apiStellarBody([apiStellarPayment("12345678")], [apiStellarTransfer("1.2345678")]));
    expect(tx.kind).toBe("stellarTransaction");
    expect(tx.payloads).toEqual([]);
    expect(tx.transfers).toMatchObject([{ asset: STELLAR_USDC, amount: "1.2345678", rawAmount: "12345678", assetStandard: "stellarClassic" }]);
  });

  it("a payment beside a sep41TokenApproval under GENERIC_TRANSACTION is unknown, never a payment", () => {
    const approval = {
      sep41TokenApproval: { sourceAddress: { value: STELLAR_SENDER }, spenderAddress: { value: "GSPENDER" }, contractAddress: SEP41_TOKEN, rawAmount: "999999999999" },
    };
    const tx = parsed(apiStellarBody([apiStellarPayment("10000000"), approval], [apiStellarTransfer("1")], { subType: "GENERIC_TRANSACTION" }));
    expect(tx.kind).toBe("unknown");
    expect(tx.payloads).toEqual(["stellar:sep41TokenApproval", "subType:GENERIC_TRANSACTION"]);
  });

  it.each(["createAccount", "changeTrust"])("a %s operation is a payload", (op) => {
    const body =
      op === "createAccount"
        ? { createAccount: { destinationAddress: { value: "GNEW" }, startingBalance: "50000000000" } }
        : { changeTrust: { asset: "USDC-GISSUER", limit: "1" } };
    const tx = parsed(apiStellarBody([apiStellarPayment("10000000"), body], [apiStellarTransfer("1")]));
    expect(tx.kind).toBe("unknown");
    expect(tx.payloads).toContain(`stellar:${op}`);
  });

  it("an operation the platform did not decode is stellar:unknown", () => {
    const tx = parsed({
      ...apiStellarBody([apiStellarPayment("10000000")], [apiStellarTransfer("1")]),
      stellarTransaction: {
        operations: [
          { sourceAccountAddress: { value: STELLAR_SENDER }, decodedBody: apiStellarPayment("10000000") },
          { sourceAccountAddress: { value: STELLAR_SENDER }, rawBody: "AAAA" },
        ],
      },
    });
    expect(tx.payloads).toContain("stellar:unknown");
  });

  it("a decoded payment of 20,000 beside a transfers[] entry of 1 is refused", () => {
    expect(refused(apiStellarBody([apiStellarPayment("200000000000")], [apiStellarTransfer("1")]))).toMatch(/operations/);
  });

  it.each([
    ["another destination", apiStellarTransfer("1", { destinationAddress: { value: "GOTHER" } })],
    ["another asset", apiStellarTransfer("1", { asset: "assets/native.stellar-mainnet" })],
    ["another source", apiStellarTransfer("1", { sourceAddress: { value: "GSOMEONEELSE" } })],
  ])("a transfers[] entry with %s than the operation is refused", (_what, listed) => {
    refused(apiStellarBody([apiStellarPayment("10000000")], [listed]));
  });

  it("a decoded payment transfers[] does not list is refused", () => {
    refused(apiStellarBody([apiStellarPayment("10000000"), apiStellarPayment("20000000", "GDESTB")], [apiStellarTransfer("1")]));
  });

  it("a Stellar object without operations beside transfers[] is refused", () => {
    refused(apiBody([apiStellarTransfer("1")], { network: "networks/stellar-mainnet", stellarTransaction: {} }));
  });

  it.each(["TOKEN_APPROVAL", "PERSONAL_SIGN"])("%s with an empty Stellar object and transfers[] is refused", (subType) => {
    refused(apiBody([apiTransfer()], { subType, stellarTransaction: {} }));
  });
});

describe("the same Stellar transaction in both shapes", () => {
  const bodies = (ops: { ref: Body; api: Body }[]) => ({
    reference: stellarBody(ops.map((o) => o.ref)),
    api: apiStellarBody(ops.map((o) => o.api)),
  });
  const payment = { ref: stellarPayment("12345678"), api: apiStellarPayment("12345678") };
  const strip = (t: Transaction) => ({ kind: t.kind, payloads: t.payloads, transfers: t.transfers.map(({ sponsor: _s, ...rest }) => rest) });

  it.each([
    ["two payments", [payment, payment]],
    ["a payment and a changeTrust", [payment, { ref: { changeTrust: { asset: "USDC-G" } }, api: { changeTrust: { asset: "USDC-G" } } }]],
    [
      "a payment and a createAccount",
      [
        payment,
        { ref: { createAccount: { destinationAddress: "GNEW", startingBalance: "1" } }, api: { createAccount: { destinationAddress: { value: "GNEW" }, startingBalance: "1" } } },
      ],
    ],
  ] as const)("%s: same transfers, kind and payloads", (_what, ops) => {
    const { reference, api } = bodies([...ops]);
    expect(strip(parsed(api))).toEqual(strip(parsed(reference)));
  });

  it("the reference shape no longer refuses non-payment operations: they are payloads", () => {
    const tx = parsed(stellarBody([stellarPayment("1"), { sep41TokenApproval: { spender: "GX", rawAmount: "1" } }]));
    expect(tx).toMatchObject({ kind: "unknown", payloads: ["stellar:sep41TokenApproval"] });
    expect(tx.transfers).toHaveLength(1);
  });
});

describe("payloads signed as transfers", () => {
  it("the shared examples: an exact ERC-20 evmTransaction is no payload; an outside allowance is", () => {
    expect(parsed(example("api-shape-token-transfer-evm"))).toMatchObject({ kind: "assetTransfer", payloads: [] });
    expect(parsed(example("api-shape-token-transfer-with-allowance"))).toMatchObject({ kind: "unknown", payloads: ["tokenAllowances"] });
  });

  const cases: { what: string; body: Body; payloads: string[] }[] = [
    { what: "type MESSAGE with a transfer subType", body: apiBody([apiTransfer()], { type: "MESSAGE" }), payloads: ["type:MESSAGE"] },
    {
      what: "tokenAllowances beside a TOKEN_TRANSFER",
      body: apiBody([apiTransfer()], { tokenAllowances: [{ spenderAddress: { value: EVM_DEST }, asset: USDC_ETH, amount: "1" }] }),
      payloads: ["tokenAllowances"],
    },
    { what: "approve calldata", body: usdcWith({ data: erc20Approve(EVM_DEST, 10n ** 30n) }), payloads: ["evmCalldata"] },
    { what: "calldata sending to another address", body: usdcWith({ data: erc20Transfer("0x1111111111111111111111111111111111111111", 1_000_000n) }), payloads: ["evmCalldata"] },
    { what: "calldata moving another amount", body: usdcWith({ data: erc20Transfer(EVM_DEST, 20_000_000_000n) }), payloads: ["evmCalldata"] },
    { what: "calldata with trailing bytes", body: usdcWith({ data: `${erc20Transfer(EVM_DEST, 1_000_000n)}00` }), payloads: ["evmCalldata"] },
    { what: "calldata to another contract", body: usdcWith({ data: erc20Transfer(EVM_DEST, 1_000_000n), toAddress: { value: EVM_DEST } }), payloads: ["evmCalldata"] },
    { what: "a non-zero value on a token transfer", body: usdcWith({ data: erc20Transfer(EVM_DEST, 1_000_000n), value: "1000" }), payloads: ["evmValue"] },
    {
      what: "an EIP-7702 authorization list on a NATIVE_TRANSFER",
      body: apiBody([apiTransfer({ asset: "assets/native.ethereum-mainnet" })], {
        subType: "NATIVE_TRANSFER",
        evmTransaction: { authorizationDetails: { authorizationList: [{ contractAddress: { value: EVM_DEST }, chainId: "1", nonce: "0" }] } },
      }),
      payloads: ["evmAuthorizations"],
    },
    {
      what: "a native value that is not the transfer's",
      body: apiBody([apiTransfer({ asset: "assets/native.ethereum-mainnet", amount: "1" })], {
        subType: "NATIVE_TRANSFER",
        evmTransaction: { toAddress: { value: EVM_DEST }, value: "1000000000000000000000" },
      }),
      payloads: ["evmValue"],
    },
    { what: "an evmMessage", body: apiBody([apiTransfer()], { evmMessage: { type: "PERSONAL_SIGN", message: "hi" } }), payloads: ["evmMessage"] },
    { what: "a tonProof", body: apiBody([apiTransfer()], { tonProof: { payload: "x" } }), payloads: ["tonProof"] },
    { what: "a solanaSignMessage", body: apiBody([apiTransfer()], { solanaSignMessage: { message: "aGk=" } }), payloads: ["solanaMessage"] },
    { what: "a btcPsbt", body: apiBody([apiTransfer()], { btcPsbt: { outputs: [{ address: { value: "bc1qx" }, amount: "5" }] } }), payloads: ["btcPsbt"] },
    { what: "a Tron voteWitness", body: apiBody([apiTransfer()], { tronTransaction: { voteWitness: { votes: [{ voteCount: "1" }] } } }), payloads: ["tron:voteWitness"] },
    { what: "a Tron contract call", body: apiBody([apiTransfer()], { tronTransaction: { triggerSmartContract: { data: "00" } } }), payloads: ["tron:triggerSmartContract"] },
    { what: "an Aleo operation", body: apiBody([apiTransfer()], { aleoTransaction: { operations: [{ unknown: { inputs: [] } }] } }), payloads: ["aleo:unknown"] },
    {
      what: "an Aleo operation naming only a program and transition",
      body: apiBody([apiTransfer()], { aleoTransaction: { operations: [{ program: "vault_drain.aleo", transition: "approve_all" }] } }),
      payloads: ["aleo:unknown"],
    },
    {
      what: "an Aleo operation undecoded beside a decoded one",
      body: apiBody([apiTransfer()], { aleoTransaction: { operations: [{ transferPublic: { amount: "1" } }, { program: "x.aleo" }] } }),
      payloads: ["aleo:transferPublic", "aleo:unknown"],
    },
    {
      // No value moves in it, but it calls 0x…bEEF from the vault's wallet, which is not the USDC transfer listed.
      what: "an empty call to another address beside a token transfer",
      body: apiBody([apiTransfer()], { evmTransaction: { toAddress: { value: "0x000000000000000000000000000000000000bEEF" }, value: "0", data: "" } }),
      payloads: ["evmCalldata"],
    },
    {
      what: "a native transfer whose call moves no value",
      body: apiBody([apiTransfer({ asset: "assets/native.ethereum-mainnet", amount: "1" })], {
        subType: "NATIVE_TRANSFER",
        evmTransaction: { toAddress: { value: EVM_DEST }, value: "0" },
      }),
      payloads: ["evmCalldata"],
    },
    { what: "a Substrate call", body: apiBody([apiTransfer()], { substrateTransaction: { call: { pallet: "Balances" } } }), payloads: ["substrateCall"] },
    {
      what: "an Aptos call",
      body: apiBody([apiTransfer()], { aptosTransaction: { decodedPayload: { entryFunction: { function: "0x1::coin::transfer" } } } }),
      payloads: ["aptosCall"],
    },
    { what: "a field nobody classified", body: apiBody([apiTransfer()], { evmTransaction: { newThing: "x" } }), payloads: ["evmTransaction.newThing"] },
    { what: "a key spelt as a path", body: apiBody([apiTransfer()], { "evmTransaction.fee": "x" }), payloads: ['["evmTransaction.fee"]'] },
    { what: "a contract-call subType", body: apiBody([apiTransfer()], { subType: "CONTRACT_CALL" }), payloads: ["subType:CONTRACT_CALL"] },
  ];
  it.each(cases)("$what → unknown, payloads $payloads", ({ body, payloads }) => {
    const tx = parsed(body);
    expect(tx.kind).toBe("unknown");
    expect(tx.payloads).toEqual(payloads);
  });

  it("allowances and authorizations are facts too", () => {
    const tx = parsed(
      apiBody([apiTransfer()], {
        tokenAllowances: [{ approverAddress: { value: FROM }, spenderAddress: { value: EVM_DEST }, asset: USDC_ETH, amount: "5" }],
        evmTransaction: { authorizationDetails: { authorizationList: [{ signer: { value: FROM }, contractAddress: { value: EVM_DEST }, chainId: "1", nonce: "7" }] } },
      }),
    );
    // Their accounts in canonical spelling (src/core/chains/canonical.ts), as a rule's literals are read.
    expect(tx.tokenAllowances).toEqual([{ approver: FROM.toLowerCase(), spender: EVM_DEST.toLowerCase(), asset: USDC_ETH, amount: "5" }]);
    expect(tx.authorizations).toEqual([{ signer: FROM.toLowerCase(), contractAddress: EVM_DEST.toLowerCase(), chainId: "1", nonce: "7" }]);
  });

  it("empty lists and delivery metadata are no payloads", () => {
    const tx = parsed(
      apiBody([apiTransfer()], {
        tokenAllowances: [],
        evmTransaction: { fee: { gasLimit: "21000" }, nonce: "3", authorizationDetails: { authorizationList: [] } },
        amlDetails: { resolved: true },
        hash: "0x1",
      }),
    );
    expect(tx).toMatchObject({ kind: "assetTransfer", payloads: [] });
    // A Bitcoin object that lists no inputs or outputs moves nothing to match a token transfer against.
    expect(parsed(apiBody([apiTransfer()], { btcTransaction: {} }))).toMatchObject({ kind: "assetTransfer", payloads: [] });
  });

  it("Bitcoin outputs beside transfers of another coin, or change and inputs without amounts, are payloads", () => {
    const btc = (transfer: Record<string, unknown>, btcTransaction: Record<string, unknown>) =>
      apiBody([apiTransfer({ sourceAddress: null, destinationAddress: { value: "bc1qdest" }, amount: "1", ...transfer })], {
        subType: "BTC_TRANSFER",
        network: null,
        request: { sourceWallet: `${VAULT}/wallets/w1` },
        btcTransaction,
      });
    const paid = { outputs: [{ address: { value: "bc1qdest" }, amount: "1" }] };
    expect(parsed(btc({ asset: "assets/native.bitcoin-mainnet" }, { ...paid, asset: "assets/native.bitcoin-mainnet" })).payloads).toEqual([]);
    expect(parsed(btc({ asset: "assets/native.bitcoin-testnet" }, { ...paid, asset: "assets/native.bitcoin-mainnet" })).payloads).toEqual(["btcOutputs"]);
    expect(
      parsed(
        btc(
          { asset: "assets/spl.solana-mainnet.EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", destinationAddress: { value: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM" } },
          paid,
        ),
      ).payloads,
    ).toEqual(["btcOutputs"]);
    expect(parsed(btc({ asset: "assets/native.bitcoin-mainnet" }, { inputs: [{ address: { value: "bc1qown" } }], ...paid })).payloads).toEqual(["btcInputs"]);
    expect(parsed(btc({ asset: "assets/native.bitcoin-mainnet" }, { inputs: [{ address: { value: "bc1qown" }, amount: "2" }] })).payloads).toEqual(["btcOutputs"]);
    const change = { outputs: [...paid.outputs, { address: { value: "bc1qown" }, change: true }] };
    expect(parsed(btc({ asset: "assets/native.bitcoin-mainnet" }, change)).payloads).toEqual(["btcOutputs"]);
  });
});

describe("kind confusion is refused", () => {
  const cases: { what: string; body: Body }[] = [
    { what: "details.assetTransfer beside a delegation subType", body: assetTransferBody({}, { subType: "EVM_ACCOUNT_DELEGATION" }) },
    { what: "details.assetTransfer beside an evmAccountDelegation object", body: assetTransferBody({}, { evmAccountDelegation: { chainId: "1" } }) },
    { what: "an unknown details kind beside a delegation subType", body: { name: TX_NAME, subType: "EVM_ACCOUNT_DELEGATION", details: { contractCall: {} } } },
    { what: "a Stellar object beside details", body: assetTransferBody({}, { stellarTransaction: {} }) },
    { what: "a Stellar object beside BTC_TRANSFER", body: apiStellarBody([apiStellarPayment("1")], [], { subType: "BTC_TRANSFER" }) },
    { what: "a Stellar object on Ethereum", body: apiStellarBody([apiStellarPayment("1")], [], { network: "networks/ethereum-mainnet" }) },
    { what: "a Stellar object in a MESSAGE", body: apiStellarBody([apiStellarPayment("1")], [], { type: "MESSAGE" }) },
    { what: "amount and rawAmount 23 orders of magnitude apart", body: apiBody([apiTransfer({ amount: "1", rawAmount: "100000000000000000000000" })]) },
    {
      what: "a native amount and rawAmount at the wrong decimals",
      body: apiBody([apiTransfer({ asset: "assets/native.ethereum-mainnet", amount: "1", rawAmount: "1000000" })], { subType: "NATIVE_TRANSFER" }),
    },
    { what: "an evmTransaction sender that is not the transfer's source", body: usdcWith({ fromAddress: { value: EVM_DEST } }) },
    { what: "a native asset of another network than the transaction's", body: apiBody([apiTransfer({ asset: "assets/native.polygon-mainnet" })], { subType: "NATIVE_TRANSFER" }) },
    {
      what: "a token of another network than the transaction's",
      body: assetTransferBody({ asset: "assets/erc20.polygon-mainnet.0x2791bca1f2de4661ed88a30c99a7a9449aa84174" }, { network: "networks/ethereum-mainnet" }),
    },
    { what: "a Stellar network in details unlike the transaction's", body: { ...stellarBody([stellarPayment("1")]), network: "networks/stellar-testnet" } },
  ];
  it.each(cases)("$what", ({ body }) => {
    refused(body);
  });

  it("amount and rawAmount that agree are accepted", () => {
    expect(parsed(apiBody([apiTransfer({ amount: "1.5", rawAmount: "1500000" })])).transfers[0]).toMatchObject({ amount: "1.5", rawAmount: "1500000" });
    expect(parsed(apiBody([apiTransfer({ asset: "assets/native.ethereum-mainnet", amount: "1", rawAmount: "1000000000000000000" })], { subType: "NATIVE_TRANSFER" })).kind).toBe(
      "assetTransfer",
    );
  });
});

describe("request.sourceWallet is a claim, never an override", () => {
  it("a transfer source naming another wallet than request.sourceWallet is refused", () => {
    expect(refused(apiBody([apiTransfer({ sourceAddress: { value: `${VAULT}/wallets/A` } })], { request: { sourceWallet: `${VAULT}/wallets/B` } }))).toMatch(
      /contradicts request.sourceWallet/,
    );
  });
  it("a raw source address keeps no wallet of its own; the claim is kept beside it", () => {
    const tx = parsed(apiBody([apiTransfer()], { request: { sourceWallet: `${VAULT}/wallets/B` } }));
    expect(tx.transfers[0]?.source).toMatchObject({ kind: "address", wallet: null });
    expect(tx.sourceWallet).toBe(`${VAULT}/wallets/B`);
  });
  it("a request.sourceWallet of another vault is refused", () => {
    refused(apiBody([apiTransfer()], { request: { sourceWallet: "vaults/other/wallets/B" } }));
  });
});

describe("the short wallet form", () => {
  it.each(["source", "destination"])("%s wallets/{w} is the vault's wallet", (field) => {
    const tx = parsed(assetTransferBody({ [field]: "wallets/7a8b9c0d1e2f" }));
    expect(tx.transfers[0]?.[field as "source" | "destination"]).toEqual({ value: "wallets/7a8b9c0d1e2f", kind: "wallet", wallet: WALLET, address: null });
  });
  it("a short sponsor is qualified too", () => {
    expect(parsed(assetTransferBody({ sponsor: "wallets/gas" })).transfers[0]?.sponsor).toBe(`${VAULT}/wallets/gas`);
  });
});

describe("resource names follow the platform's grammar", () => {
  const cases: { what: string; body: Body }[] = [
    { what: "asset assets/", body: assetTransferBody({ asset: "assets/" }) },
    { what: "asset assets/.", body: assetTransferBody({ asset: "assets/erc20..0x1" }) },
    { what: "asset without assets/", body: assetTransferBody({ asset: "erc20.ethereum-mainnet.0x1" }) },
    { what: "API asset assets/", body: apiBody([apiTransfer({ asset: "assets/" })]) },
    { what: "network networks/", body: apiBody([apiTransfer()], { network: "networks/" }) },
    { what: "a bare network", body: apiBody([apiTransfer()], { network: "ethereum-mainnet" }) },
    { what: "a designated signer that is no user", body: assetTransferBody({}, { designatedSigners: ["policy-bot"] }) },
    { what: "an initiator users/", body: apiBody([apiTransfer()], { request: { initiator: "users/" } }) },
    { what: "a sponsor that is no wallet", body: assetTransferBody({ sponsor: "0xabc" }) },
    { what: "a source vaults//wallets/w", body: assetTransferBody({ source: "vaults//wallets/w" }) },
    { what: "a destination wallets/", body: assetTransferBody({ destination: "wallets/" }) },
    { what: "a Stellar payment asset that is neither form", body: stellarBody([stellarPayment("1", "GDEST", "USDC")]) },
  ];
  it.each(cases)("$what → 400", ({ body }) => {
    refused(body);
  });
});
