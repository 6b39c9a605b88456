/**
 * Tron. Rules, the address book and the windows know an account as base58 `T…` or as `41` and the
 * 20 bytes in hex (the API takes both; accounts.ts folds the hex into `T…`). Tron's virtual machine
 * and some clients also write an account as `0x` and the 20 bytes, which compared as an EVM address
 * would slip past a deny rule naming `T…` and open a window group of its own: refused, as any other
 * spelling there.
 */
import { spelledAs, type ChainFamily } from "../family.js";
import { TRON_DECIMALS, TRON_FEES } from "./fee.js";

const TRON_ACCOUNT = /^(?:T[1-9A-HJ-NP-Za-km-z]{33}|41[0-9a-fA-F]{40})$/;

export const tron: ChainFamily = {
  name: "tron",
  networks: /^tron-/,
  nativeDecimals: TRON_DECIMALS,
  readAccount: spelledAs(TRON_ACCOUNT, "a Tron account must be written in base58 (T…) or as 41 and its 20 bytes in hex"),
  fees: TRON_FEES,
};
