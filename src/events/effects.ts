/**
 * What an event makes countersign do, decided from the event alone:
 * - a transaction that ended in a failure it can never execute after frees the velocity it was
 *   charged (`void-charges`; VOIDING_STATES);
 * - a transaction the platform reports CONFIRMED counts in the windows again if its charges were
 *   voided before (`count-charges-again`): the money moved, whatever voided them (an operator's
 *   `velocity void` of a DROPPED transaction that was rebroadcast and mined, a failure reported
 *   before the success);
 * - a new wallet or wallet address changes which destinations are internal (`resync-wallets`).
 * Everything else (TEST, TRANSACTION_CREATED, other states, AML results, unknown types) is only
 * stored. The callbacks must be idempotent: an effect runs at least once per event, and more
 * than once when deliveries race or its completion could not be recorded.
 */
import type { PlatformEvent } from "./event.js";

/** The one terminal success state: money moved. */
export const CONFIRMED = "CONFIRMED";

/** Terminal failure states (custody API reference, "Errors" 6). CONFIRMED is the only success. */
export const FAILED_TRANSACTION_STATES: ReadonlySet<string> = new Set(["CANCELED", "FAILED", "DECLINED", "DECLINED_BY_AML_POLICY", "DROPPED", "EXPIRED", "REPLACED"]);

/**
 * The failures that free the room a transaction took in the velocity windows: those whose
 * signature can never execute. DECLINED, DECLINED_BY_AML_POLICY and CANCELED come before signing;
 * FAILED is a failure on chain, its nonce spent. DROPPED, EXPIRED and REPLACED are failures too (a
 * later delivery is denied), but they can come after signing while the signature is still good: a
 * dropped transaction can be rebroadcast by anyone who saw it in the mempool, a replaced one mined
 * if its replacement is not, and the reference does not say when a transaction expires. Freeing
 * their room would let the same wallet sign again while the first payment may still land, so their
 * charges stay; an operator who knows a signature is dead voids them with `countersign velocity void`.
 */
export const VOIDING_STATES: ReadonlySet<string> = new Set(["CANCELED", "FAILED", "DECLINED", "DECLINED_BY_AML_POLICY"]);

const WALLET_EVENTS: ReadonlySet<string> = new Set(["WALLET_CREATED", "WALLET_ADDRESS_CREATED"]);

export interface EventEffectHandlers {
  /** Wired to the velocity ledger's voidCharges (idempotent). */
  onTransactionFailed(transactionName: string, state: string): Promise<void>;
  /** Wired to the velocity ledger's countChargesAgain (idempotent). */
  onTransactionConfirmed(transactionName: string): Promise<void>;
  /** Wired to an address-book re-sync of the vault's wallets. */
  onWalletChanged(vault: string): Promise<void>;
}

export interface EventEffect {
  name: "void-charges" | "count-charges-again" | "resync-wallets";
  run(handlers: EventEffectHandlers): Promise<void>;
}

/** The effect of an event, or null. parseEvent has already checked the fields read here. */
export function effectOf(event: PlatformEvent): EventEffect | null {
  if (event.type === "TRANSACTION_STATE_UPDATED" && event.newState && VOIDING_STATES.has(event.newState)) {
    const { resource, newState } = event;
    if (resource === null) return null;
    return { name: "void-charges", run: (h) => h.onTransactionFailed(resource, newState) };
  }
  if (event.type === "TRANSACTION_STATE_UPDATED" && event.newState === CONFIRMED && event.resource !== null) {
    const { resource } = event;
    return { name: "count-charges-again", run: (h) => h.onTransactionConfirmed(resource) };
  }
  if (WALLET_EVENTS.has(event.type) && event.vault !== null) {
    const vault = event.vault;
    return { name: "resync-wallets", run: (h) => h.onWalletChanged(vault) };
  }
  return null;
}
