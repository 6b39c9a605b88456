/**
 * The velocity ledger's public API (see README.md for the design). The caller owns the
 * transaction: lockWindowGroups → readWindowTotals → evaluate → insert decision → recordCharges → commit.
 */
export { lockWindowGroups } from "./locks.js";
export { readWindowTotals } from "./read.js";
export { windowTotalId, type WindowQuery } from "../core/facts/window-query.js";
export type { WindowTotal } from "../core/facts/types.js";
export { recordCharges, type ChargeInput } from "./charge.js";
export { countChargesAgain, voidCharges } from "./void.js";
