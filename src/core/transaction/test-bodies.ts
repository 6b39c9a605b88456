/** Test support: the example bodies, and small bodies of each shape to vary one field at a time. */
import { readFileSync } from "node:fs";
import { parseTransaction } from "./parse.js";
import type { Transaction } from "./types.js";

export const VAULT = "vaults/5c3f1a2b9d7e";
export const WALLET = `${VAULT}/wallets/7a8b9c0d1e2f`;
export const TX_NAME = `${VAULT}/transactions/0f9e8d7c6b5a`;
export const USDC_ETH = "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
export const EVM_DEST = "0x52908400098527886E0F7030069857D2E4169EE7";

export type Body = Record<string, unknown>;

export const EXAMPLES = [
  "asset-transfer",
  "api-shape-token-transfer",
  "api-shape-token-transfer-evm",
  "api-shape-token-transfer-with-allowance",
  "stellar-two-payments",
  "evm-delegation",
] as const;
export type ExampleName = (typeof EXAMPLES)[number];

export function example(name: ExampleName): Body {
  return JSON.parse(readFileSync(new URL(`./__fixtures__/${name}.json`, import.meta.url), "utf8")) as Body;
}

/** Shape 1 with one `details.assetTransfer`; `fields` override the transfer's fields. */
export function assetTransferBody(fields: Body = {}, top: Body = {}): Body {
  return {
    name: TX_NAME,
    details: {
      assetTransfer: { asset: USDC_ETH, amount: "10", source: WALLET, destination: EVM_DEST, ...fields },
    },
    ...top,
  };
}

/** Shape 2 with the given `transfers[]`; `top` overrides top-level fields. */
export function apiBody(transfers: unknown[], top: Body = {}): Body {
  return {
    name: TX_NAME,
    type: "TRANSACTION",
    subType: "TOKEN_TRANSFER",
    network: "networks/ethereum-mainnet",
    request: { sourceWallet: WALLET, initiator: "users/ops@example.com" },
    transfers,
    ...top,
  };
}

export const apiTransfer = (fields: Body = {}): Body => ({
  sourceAddress: { value: "0x8ba1f109551bD432803012645Ac136ddd64DBA72" },
  destinationAddress: { value: EVM_DEST },
  amount: "1",
  asset: USDC_ETH,
  ...fields,
});

export const STELLAR_SENDER = "GSENDERAXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX";
export const STELLAR_USDC = "USDC-GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN";

/** Shape 1 `details.stellarTransaction` with the given operation bodies, all from one sender. */
export function stellarBody(bodies: Body[], network = "networks/stellar-mainnet"): Body {
  return {
    name: TX_NAME,
    details: {
      stellarTransaction: {
        network,
        sourceAddress: "GSPONSORXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
        operations: bodies.map((body) => ({ sourceAccountAddress: STELLAR_SENDER, body })),
      },
    },
  };
}

export const stellarPayment = (rawAmount: string, destinationAddress = "GDESTA", asset = STELLAR_USDC): Body => ({
  payment: { destinationAddress, asset, rawAmount },
});

/** A SEP-41 token contract (the shared examples' illustrative one). */
export const SEP41_TOKEN = "CCONTRACTXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX";

export const STELLAR_SPONSOR = "GSPONSORXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX";

/** Shape 2 with a `stellarTransaction` whose operations have the given decoded bodies, all from one sender. */
export function apiStellarBody(decodedBodies: Body[], transfers: unknown[] = [], top: Body = {}): Body {
  return {
    name: TX_NAME,
    type: "TRANSACTION",
    subType: "TOKEN_TRANSFER",
    network: "networks/stellar-mainnet",
    transfers,
    stellarTransaction: {
      sourceAccountAddress: { value: STELLAR_SPONSOR },
      operations: decodedBodies.map((decodedBody) => ({ sourceAccountAddress: { value: STELLAR_SENDER }, decodedBody })),
    },
    ...top,
  };
}

/** A decoded classic payment as the API writes it: `amount` in stroops. */
export const apiStellarPayment = (amount: string, destination = "GDESTA", asset = STELLAR_USDC): Body => ({
  payment: { destinationAddress: { value: destination }, asset, amount },
});

/** A transfers[] entry for a Stellar payment, as the API lists it. */
export const apiStellarTransfer = (amount: string, fields: Body = {}): Body => ({
  sourceAddress: { value: STELLAR_SENDER },
  destinationAddress: { value: "GDESTA" },
  amount,
  asset: `assets/asset.stellar-mainnet.${STELLAR_USDC}`,
  ...fields,
});

/** The Transaction a body parses to; throws with the refusal when it does not parse. */
export function parsed(body: unknown): Transaction {
  const result = parseTransaction(body);
  if (!result.ok) throw new Error(`expected a transaction, got ${result.error.code}: ${result.error.publicMessage}`);
  return result.value;
}
