/** What the decision path needs from the rest of the service; tests pass their own. */
import type { AddressBookSource } from "../addressbook/source.js";
import { createAssetDecimals, type AssetDecimals } from "../assets/decimals.js";
import type { Db } from "../database.js";
import type { DeliveryCheck } from "../deliveries/check.js";
import { createAssetPrices, type AssetPrices } from "../assets/prices.js";
import type { Logger } from "../log.js";
import type { PolicyBundle } from "../core/policy/types.js";
import type { StoredReview } from "../review/store.js";

export type StandDownCause = "clock_skew" | "policy_superseded";

/** Why a delivery could not be decided: this process stands down, or the platform could not be asked. */
export type UnavailableCause = StandDownCause | "platform_unavailable";

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
  /** The platform check of each delivery (COUNTERSIGN_VERIFY_DELIVERIES=platform); absent when off. */
  deliveries?: DeliveryCheck;
  /** Told of each review a delivery opened, after its commit (src/review/notify.ts); must not block. */
  reviews?: { opened(review: StoredReview, bundle: PolicyBundle): void };
}

/** No custody API and no pins: every amount that needs a token's decimals stays unverified (defers). */
export const NO_ASSET_DECIMALS: AssetDecimals = createAssetDecimals({ pins: new Map() });

/** No custody API and no pins: every price is unknown (dollar facts null, dollar windows defer). */
export const NO_ASSET_PRICES: AssetPrices = createAssetPrices({ pins: new Map(), maxAgeMs: 60_000 });
