/** What the decision path needs from the rest of the service; tests pass their own. */
import type { AddressBookView } from "../addressbook/types.js";
import { createAssetDecimals, type AssetDecimals } from "../assets/decimals.js";
import { createAssetPrices, type AssetPrices } from "../assets/prices.js";
import type { Db } from "../db/connect.js";
import type { Logger } from "../log.js";
import type { PolicyBundle } from "../policy/types.js";
import type { StoredReview } from "../review/store.js";

export interface AddressBookSource {
  /** The vault's synced copy (or a not-configured view when sync is off). */
  viewFor(vault: string): Promise<AddressBookView>;
  /** Why the copy is too old to judge by (its transfers then defer), or null when it is usable. */
  staleReason(view: AddressBookView, now: Date): string | null;
}

export type StandDownCause = "clock_skew" | "policy_superseded";

export interface DecisionDeps {
  db: Db;
  policy: { current(): PolicyBundle };
  /** The candidate of COUNTERSIGN_SHADOW_POLICIES, evaluated beside the live bundle and recorded only. */
  shadow?: { current(): PolicyBundle | null };
  addressBook: AddressBookSource;
  /** Token decimals for the unit check (src/decision/verify-claims.ts); without it, none are known. */
  assetDecimals?: AssetDecimals;
  /** USD prices for the dollar facts and windows (src/assets/prices.ts); without it, none are known. */
  assetPrices?: AssetPrices;
  clock: () => Date;
  /**
   * Why this process may not decide now, or null: its clock is out of step with the database's
   * (src/db/clock-check.ts), or a newer policy bundle is in force on another process
   * (src/policy/adoption.ts). The webhook then defers, recording nothing.
   */
  standDown?: () => StandDownCause | null;
  logger: Logger;
  /** COUNTERSIGN_DECISION_TIMEOUT in ms (default 5 s): see deadline.ts. */
  decisionTimeoutMs?: number;
  /** COUNTERSIGN_MAX_WINDOW_GROUPS (default 256): see group-cap.ts. */
  maxWindowGroups?: number;
  /** Told of each review a delivery opened, after its commit (src/review/notify.ts); must not block. */
  reviews?: { opened(review: StoredReview, bundle: PolicyBundle): void };
}

/** No custody API and no pins: every amount that needs a token's decimals stays unverified (defers). */
export const NO_ASSET_DECIMALS: AssetDecimals = createAssetDecimals({ pins: new Map() });

/** No custody API and no pins: every price is unknown (dollar facts null, dollar windows defer). */
export const NO_ASSET_PRICES: AssetPrices = createAssetPrices({ pins: new Map(), maxAgeMs: 60_000 });
