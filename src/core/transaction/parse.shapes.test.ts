import { canonicalAccount } from "../chains/canonical.js";
import { describe, expect, it } from "vitest";
import { EXAMPLES, example, type Body, type ExampleName, parsed } from "./test-bodies.js";
import type { Endpoint, Transaction } from "./types.js";

const WALLET = "vaults/5c3f1a2b9d7e/wallets/7a8b9c0d1e2f";
const USDC = "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
const SENDER = "GSENDERAXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX";
const SPONSOR = "GSPONSORXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX";
const address = (value: string): Endpoint => ({ value, kind: "address", wallet: null, address: canonicalAccount(value) });

/** Everything but the snapshot, as each example must parse. */
const expected: Record<ExampleName, Omit<Transaction, "snapshot">> = {
  "asset-transfer": {
    name: "vaults/5c3f1a2b9d7e/transactions/0f9e8d7c6b5a",
    vault: "vaults/5c3f1a2b9d7e",
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
    sourceWallet: null,
    payloads: [],
    tokenAllowances: [],
    authorizations: [],
    memo: null,
    fee: null,
    changeOutputs: [],
    sender: null,
    btcInputs: [],
    transfers: [
      {
        index: 0,
        network: "ethereum-mainnet",
        asset: USDC,
        assetStandard: "erc20",
        amount: "2500.125",
        rawAmount: null,
        source: { value: WALLET, kind: "wallet", wallet: WALLET, address: null },
        destination: address("0x52908400098527886E0F7030069857D2E4169EE7"),
        sponsor: "vaults/5c3f1a2b9d7e/wallets/gas0001",
      },
    ],
  },
  "api-shape-token-transfer": {
    name: "vaults/5c3f1a2b9d7e/transactions/1a2b3c4d5e6f",
    vault: "vaults/5c3f1a2b9d7e",
    id: "1a2b3c4d5e6f",
    kind: "assetTransfer",
    type: "TRANSACTION",
    subType: "TOKEN_TRANSFER",
    state: "AWAITING_SIGNATURE",
    network: "networks/ethereum-mainnet",
    note: "Payout batch 42",
    externalId: "payout-42",
    requestId: null,
    initiator: "users/payout-service@treasury.example",
    designatedSigners: ["users/policy-bot@treasury.example"],
    sourceWallet: WALLET,
    payloads: [],
    tokenAllowances: [],
    authorizations: [],
    memo: null,
    fee: null,
    changeOutputs: [],
    sender: null,
    btcInputs: [],
    transfers: [
      {
        index: 0,
        network: "ethereum-mainnet",
        asset: USDC,
        assetStandard: "erc20",
        amount: "120.5",
        rawAmount: null,
        // The raw source address as written; request.sourceWallet stays a claim beside it (tx.sourceWallet).
        source: address("0x8ba1f109551bD432803012645Ac136ddd64DBA72"),
        destination: address("0x52908400098527886E0F7030069857D2E4169EE7"),
        sponsor: null,
      },
    ],
  },
  // The same USDC transfer with its exact evmTransaction: still a plain transfer, no payloads.
  "api-shape-token-transfer-evm": null as unknown as Omit<Transaction, "snapshot">,
  // ... and with an unlimited allowance to an outsider: a payload, so the kind is unknown.
  "api-shape-token-transfer-with-allowance": null as unknown as Omit<Transaction, "snapshot">,
  "stellar-two-payments": {
    name: "vaults/5c3f1a2b9d7e/transactions/stellar0001",
    vault: "vaults/5c3f1a2b9d7e",
    id: "stellar0001",
    kind: "stellarTransaction",
    type: null,
    subType: null,
    state: "AWAITING_SIGNATURE",
    network: "networks/stellar-mainnet",
    note: null,
    externalId: null,
    requestId: null,
    initiator: null,
    designatedSigners: ["users/policy-bot@treasury.example"],
    sourceWallet: null,
    payloads: [],
    tokenAllowances: [],
    authorizations: [],
    memo: null,
    fee: null,
    changeOutputs: [],
    sender: null,
    btcInputs: [],
    transfers: [
      {
        index: 0,
        network: "stellar-mainnet",
        asset: "USDC-GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN",
        assetStandard: "stellarClassic",
        amount: "1.2345678",
        rawAmount: "12345678",
        source: address(SENDER),
        destination: address("GDESTAXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"),
        sponsor: SPONSOR,
        stellarOperation: true,
      },
      {
        index: 1,
        network: "stellar-mainnet",
        asset: "CCONTRACTXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
        assetStandard: "sep41",
        amount: null,
        rawAmount: "5000000",
        source: address(SENDER),
        destination: address("GDESTBXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"),
        sponsor: SPONSOR,
        stellarOperation: true,
      },
    ],
  },
  "evm-delegation": {
    name: "vaults/5c3f1a2b9d7e/transactions/deleg0001",
    vault: "vaults/5c3f1a2b9d7e",
    id: "deleg0001",
    kind: "evmAccountDelegation",
    type: "TRANSACTION",
    subType: "EVM_ACCOUNT_DELEGATION",
    state: "AWAITING_SIGNATURE",
    network: "networks/ethereum-mainnet",
    note: null,
    externalId: null,
    requestId: null,
    initiator: null,
    designatedSigners: ["users/policy-bot@treasury.example"],
    sourceWallet: WALLET,
    payloads: [],
    tokenAllowances: [],
    // Marked by its subType alone: one authorization whose contract the body does not state.
    authorizations: [{ signer: null, contractAddress: null, chainId: null, nonce: null }],
    memo: null,
    fee: null,
    changeOutputs: [],
    sender: null,
    btcInputs: [],
    transfers: [],
  },
};

expected["api-shape-token-transfer-evm"] = {
  ...expected["api-shape-token-transfer"],
  name: "vaults/5c3f1a2b9d7e/transactions/2b3c4d5e6f70",
  id: "2b3c4d5e6f70",
  sender: { field: "evmTransaction.fromAddress", chain: "EVM", address: "0x8ba1f109551bD432803012645Ac136ddd64DBA72" },
};
expected["api-shape-token-transfer-with-allowance"] = {
  ...expected["api-shape-token-transfer"],
  name: "vaults/5c3f1a2b9d7e/transactions/3c4d5e6f7081",
  id: "3c4d5e6f7081",
  sender: { field: "evmTransaction.fromAddress", chain: "EVM", address: "0x8ba1f109551bD432803012645Ac136ddd64DBA72" },
  kind: "unknown",
  payloads: ["tokenAllowances"],
  tokenAllowances: [
    {
      approver: "0x8ba1f109551bd432803012645ac136ddd64dba72",
      spender: "0x000000000000000000000000000000000000dead",
      asset: USDC,
      amount: "115792089237316195423570985008687907853269984665640564039457584007913129.639935",
    },
  ],
};

const wrappings: { form: string; wrap: (tx: Body) => Body }[] = [
  { form: "bare", wrap: (tx) => tx },
  { form: "wrapped", wrap: (tx) => ({ transaction: tx }) },
  {
    form: "wrapped with referenced resources",
    wrap: (tx) => ({ transaction: tx, referencedResources: {}, referencedAddressesInfo: {} }),
  },
];

describe("parseTransaction: the example bodies, in each wrapping", () => {
  const cases = EXAMPLES.flatMap((name) => wrappings.map((w) => ({ name, ...w })));
  it.each(cases)("$name ($form)", ({ name, wrap }) => {
    const tx = example(name);
    const { snapshot, ...rest } = parsed(wrap(tx));
    expect(rest).toEqual(expected[name]);
    // The snapshot is the transaction object exactly as received, unwrapped, untouched.
    expect(snapshot).toBe(tx);
    expect(snapshot).toEqual(example(name));
  });
});

describe("parseTransaction: fields the classification table does not know are payloads (fail closed)", () => {
  it.each(EXAMPLES)("%s with an unclassified field, and with a metadata field", (name) => {
    const withUnknown = parsed({ ...example(name), futureField: { nested: [1, 2] } });
    expect(withUnknown.kind).toBe("unknown");
    expect(withUnknown.payloads).toContain("futureField");
    expect(withUnknown.snapshot).toMatchObject({ futureField: { nested: [1, 2] } });
    // Delivery metadata is kept in the snapshot and changes nothing else.
    const { snapshot, ...rest } = parsed({ ...example(name), hash: "0xabc", blockNumber: "12", spam: false });
    expect(rest).toEqual(expected[name]);
    expect(snapshot).toMatchObject({ hash: "0xabc" });
  });
});
