/**
 * One transaction, one model: the same transfer written in the reference shape, the API shape and
 * wrapped yields the same transfers (amount, asset identity, destination, network) and the same
 * velocity group keys — or is refused in a shape, never read as something else. Sources are written
 * as the wallet, the wallet's address resource name, the short `wallets/{id}` form or the wallet's
 * raw address; Stellar assets as `CODE-ISSUER` or the API's `assets/asset.stellar-mainnet.…`.
 */
import Big from "big.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planVelocity, situationOf } from "../../../src/core/assess.js";
import type { Transaction } from "../../../src/core/transaction/types.js";
import { microToAmount } from "../../support/property/bodies.js";
import { assetIdentity, normaliseAddress } from "../../support/property/oracle.js";
import { parse } from "../../support/property/pipeline.js";
import { exampleBundle } from "../../support/property/policies.js";
import { check, counted, PROPERTY_TEST_TIMEOUT_MS } from "../../support/property/run.js";

/** The space is small (sources × destinations × assets × amounts): fewer bodies cover it. */
const RUNS = 2_000;
import * as w from "../../support/property/world.js";

const bundle = exampleBundle();
const view = w.addressBookView();
const name = `${w.VAULT}/transactions/sameone`;

interface Written {
  token: boolean;
  m: number;
  destination: string;
  source: string;
}

const evmTransfer = fc.record({
  token: fc.boolean(),
  m: fc.integer({ min: 1, max: 100_000_000 }),
  destination: fc.constantFrom(w.BOOK_EVM, w.BOOK_EVM.toLowerCase(), w.COLD_EVM, w.OUTSIDER_EVM),
  source: fc.constantFrom(w.HOT, `${w.HOT}/addresses/eth0`, "wallets/7a8b9c0d1e2f", w.HOT_EVM, w.HOT_EVM.toLowerCase()),
});

function evmShapes(t: Written): unknown[] {
  const asset = t.token ? w.USDC_ETH : w.ETH;
  const amount = microToAmount(t.m);
  const reference = { name, details: { assetTransfer: { asset, amount, source: t.source, destination: t.destination } } };
  const api = {
    name,
    type: "TRANSACTION",
    subType: t.token ? "TOKEN_TRANSFER" : "NATIVE_TRANSFER",
    network: "networks/ethereum-mainnet",
    request: { sourceWallet: w.HOT },
    transfers: [{ sourceAddress: { value: w.HOT_EVM }, destinationAddress: { value: t.destination }, amount, asset }],
  };
  return [reference, api, { transaction: reference }, { transaction: api }];
}

const stellarTransfer = fc.record({ raw: fc.integer({ min: 1, max: 10_000_000_000 }), destination: fc.constantFrom(w.BOOK_STELLAR, w.OUTSIDER_STELLAR) });

function stellarShapes(t: { raw: number; destination: string }): unknown[] {
  const amount = new Big(t.raw).div(10_000_000).toFixed();
  const reference = {
    name,
    details: {
      stellarTransaction: {
        network: "networks/stellar-mainnet",
        sourceAddress: w.SPONSOR_STELLAR,
        operations: [{ sourceAccountAddress: w.HOT_STELLAR, body: { payment: { destinationAddress: t.destination, asset: w.STELLAR_USDC, rawAmount: String(t.raw) } } }],
      },
    },
  };
  const api = {
    name,
    type: "TRANSACTION",
    subType: "TOKEN_TRANSFER",
    network: "networks/stellar-mainnet",
    request: { sourceWallet: w.HOT },
    stellarTransaction: {
      sourceAccountAddress: { value: w.SPONSOR_STELLAR },
      // The API writes a decoded payment's amount in stroops, transfers[] in whole units.
      operations: [
        {
          sourceAccountAddress: { value: w.HOT_STELLAR },
          decodedBody: { payment: { destinationAddress: { value: t.destination }, asset: w.STELLAR_USDC, amount: String(t.raw) } },
        },
      ],
    },
    transfers: [{ sourceAddress: { value: w.HOT_STELLAR }, destinationAddress: { value: t.destination }, amount, asset: w.STELLAR_USDC_ASSET }],
  };
  return [reference, api, { transaction: api }];
}

/** What must not depend on the shape: the transfers as the policy reads them, and where velocity charges them. */
function model(tx: Transaction): unknown {
  const situation = situationOf(tx, w.NOW, view);
  return {
    transfers: situation.transfers.map((t) => ({
      amount: t.amount === null ? null : new Big(t.amount).toFixed(),
      asset: assetIdentity(t.asset),
      destination: normaliseAddress(t.destination.value),
      network: t.network,
      internal: t.destination.internal,
      inAddressBook: t.destination.inAddressBook,
    })),
    groups: planVelocity(bundle, situation).keys,
  };
}

function sameModel(bodies: unknown[]): void {
  const models = bodies
    .map(parse)
    .filter((p) => "tx" in p)
    .map((p) => model(p.tx));
  // Refusing a shape is safe; reading it as a different transaction is not.
  for (const m of models.slice(1)) expect(m, JSON.stringify(bodies)).toEqual(models[0]);
}

describe("one transaction, one model, whatever the shape", { timeout: PROPERTY_TEST_TIMEOUT_MS }, () => {
  it(counted("an EVM transfer: reference, API and wrapped shapes agree on transfers and group keys", RUNS), () => {
    check(evmTransfer, (t) => sameModel(evmShapes(t)), RUNS);
  });

  it(counted("a Stellar payment: reference and API shapes agree on transfers and group keys", RUNS), () => {
    check(stellarTransfer, (t) => sameModel(stellarShapes(t)), RUNS);
  });
});
