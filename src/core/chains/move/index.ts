/**
 * Sui and Aptos (the Move chains). An account is 32 bytes, which their SDKs also take written short
 * (`0xa` is `0x`, 63 zeros and `a`) or as `0X…`, but rules, the address book and the windows
 * compare `0x` and 64 digits without case: a deny rule naming the account would not see `0xa`, and
 * it would open a per-destination window group of its own. Refused in a transfer, never padded. A
 * chain object's sender is read as the chain reads it: padded to its 32 bytes.
 */
import { spelledAs, type ChainFamily } from "../family.js";
import { aptosChainId } from "./chain-ids.js";
import { MOVE_FEES } from "./fee.js";

const HEX_ACCOUNT = /^0x[0-9a-fA-F]{64}$/;
export const HEX32_SPELLING = "a Sui or Aptos account must be written 0x and 64 hex digits";

/** `0x` and 1 to 64 hex digits: a Sui or Aptos account, padded to its 32 bytes. */
const SHORT_HEX_ACCOUNT = /^0x([0-9a-fA-F]{1,64})$/;
const paddedAccount = (address: string): string | null => {
  const digits = SHORT_HEX_ACCOUNT.exec(address)?.[1];
  return digits === undefined ? null : `0x${digits.padStart(64, "0").toLowerCase()}`;
};

export const move: ChainFamily = {
  name: "move",
  networks: /^(sui|aptos)-/,
  readAccount: spelledAs(HEX_ACCOUNT, HEX32_SPELLING),
  senders: [
    { object: "suiTransaction", field: "sender", chain: "Sui", account: paddedAccount },
    { object: "aptosTransaction", field: "sender", chain: "Aptos", account: paddedAccount },
  ],
  fees: MOVE_FEES,
  checkChainIds: aptosChainId,
};
