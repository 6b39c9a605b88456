/**
 * A small, known audit trail written by the real decision path (`decide`) with the example policy
 * under two versions, a fixed clock, an address book with one entry, events and a voided charge.
 * The views and docs/audit-queries.sql are tested against it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import type { Db } from "../../../src/database.js";
import { decide } from "../../../src/decision/decide.js";
import { tx, view } from "../../../src/core/facts/test-views.js";
import { silentLogger } from "../../../src/log.js";
import { ActivePolicy } from "../../../src/policy/active-policy.js";
import { voidCharges } from "../../../src/velocity/ledger.js";
import { EXAMPLE_POLICIES, EXAMPLE_VERSION, exampleAssets } from "../example-bundle.js";
import { writeBundle } from "../service.js";

export const VAULT = "vaults/5c3f1a2b9d7e";
export const HOT = `${VAULT}/wallets/7a8b9c0d1e2f`;
export const COLD = `${VAULT}/wallets/cold0001`;
export const OTC_DESK = "0x52908400098527886E0F7030069857D2E4169EE7";
export const STRANGER = "0x1111111111111111111111111111111111111111";
const USDC = "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
const ETH = "assets/native.ethereum-mainnet";

export const name = (id: string) => `${VAULT}/transactions/${id}`;
export const V1 = EXAMPLE_VERSION;
/** The same policy under a later version. */
export const V2 = `${V1}.next`;

function transfer(id: string, asset: string, amount: string, destination: string) {
  return { name: name(id), state: "AWAITING_SIGNATURE", details: { assetTransfer: { asset, amount, source: HOT, destination } } };
}

export async function seedTrail(db: Db): Promise<void> {
  const v1 = await ActivePolicy.load(EXAMPLE_POLICIES, silentLogger);
  const text = readFileSync(path.join(EXAMPLE_POLICIES, "policy.yaml"), "utf8").replace(`version: "${V1}"`, `version: "${V2}"`);
  const v2 = await ActivePolicy.load(writeBundle(text), silentLogger);
  const book = view({ vault: VAULT, entries: [{ address: OTC_DESK, network: "ethereum-mainnet", displayName: "Acme OTC desk" }] });
  const assets = exampleAssets();
  let stale = false;
  const deliver = async (policy: ActivePolicy, at: string, body: unknown) => {
    const now = new Date(at);
    const result = await decide(
      {
        db,
        policy,
        addressBook: { viewFor: async () => ({ ...book, syncedAt: new Date(now.getTime() - 30_000) }), staleReason: () => (stale ? "address book is 20 minutes old" : null) },
        ...assets,
        clock: () => now,
        logger: silentLogger,
      },
      tx(body),
      `req-${at}`,
    );
    if (result.kind !== "decided") throw new Error(`seed delivery at ${at} did not decide`);
    return result;
  };

  // Day 1 (policy V1): an allow to the address book, its repeat, a changed snapshot, a stranger.
  await deliver(v1, "2026-11-10T09:00:00Z", transfer("t-otc", USDC, "1000", OTC_DESK));
  await deliver(v1, "2026-11-10T09:01:00Z", transfer("t-otc", USDC, "1000", OTC_DESK));
  await deliver(v1, "2026-11-10T09:02:00Z", transfer("t-otc", USDC, "2000", OTC_DESK));
  await deliver(v1, "2026-11-10T10:00:00Z", transfer("t-stranger", ETH, "1", STRANGER));
  // Day 2 (policy V2): over the per-transfer limit; a defer then a signature; an internal move later failed.
  await deliver(v2, "2026-11-11T08:00:00Z", transfer("t-big", USDC, "60000", OTC_DESK));
  stale = true;
  await deliver(v2, "2026-11-11T09:00:00Z", transfer("t-later", USDC, "500", OTC_DESK));
  stale = false;
  await deliver(v2, "2026-11-11T09:05:00Z", transfer("t-later", USDC, "500", OTC_DESK));
  await deliver(v2, "2026-11-11T10:00:00Z", transfer("t-internal", ETH, "5", COLD));

  await event("ev-1", "2026-11-10T08:59:59Z", "TRANSACTION_CREATED", name("t-otc"), null).execute(db);
  await event("ev-2", "2026-11-10T09:30:00Z", "TRANSACTION_STATE_UPDATED", name("t-otc"), "COMPLETED").execute(db);
  await event("ev-3", "2026-11-11T10:05:00Z", "TRANSACTION_STATE_UPDATED", name("t-internal"), "FAILED").execute(db);
  await voidCharges(db, name("t-internal"), new Date("2026-11-11T10:05:01Z"));
}

function event(id: string, at: string, type: string, resource: string, state: string | null) {
  const payload = JSON.stringify({ id, type, resource, ...(state ? { newState: state } : {}) });
  return sql`insert into events (id, received_at, vault, type, resource_type, resource, new_state, payload, body, signature)
    values (${id}, ${at}::timestamptz, ${VAULT}, ${type}, 'transaction', ${resource}, ${state}, ${payload}::jsonb, convert_to(${payload}, 'UTF8'), 'test')`;
}
