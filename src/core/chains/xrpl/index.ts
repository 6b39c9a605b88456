/**
 * The XRP Ledger. An account is a classic `r…` address or an X-address (address.ts), which names
 * the classic account and, with a tag, a sub-account of it; accounts.ts reads an X-address without
 * a tag as its classic account.
 */
import type { ChainFamily } from "../family.js";

export const xrpl: ChainFamily = {
  name: "xrpl",
  networks: /^(xrpl|xrp|ripple)-/,
};
