/**
 * Addresses that name a sub-account of an account (a Stellar muxed address `M…`, an XRP X-address
 * with a tag), found in a rule's text. A rule names the account with `transfer.destination.baseAccount`
 * and pins the sub-account with `transfer.destination.muxedId`: the loader refuses the sub-account's
 * address (validate-logic.ts).
 */
import { stellarBaseAccount, stellarMuxedId, stellarMuxedIn } from "./stellar/muxed.js";
import { xrplTaggedIn, xrplXAddress } from "./xrpl/address.js";

export interface NamedSubAccount {
  /** What the address is, for the loader's message: `a Stellar muxed address`. */
  kind: string;
  address: string;
  /** The account it is a sub-account of. */
  account: string;
  /** The sub-account's id or tag, as decimal text. */
  id: string;
}

/** The sub-account addresses written anywhere in `text`, XRP X-addresses first. */
export function subAccountsNamedIn(text: string): NamedSubAccount[] {
  const tagged = xrplTaggedIn(text).map((address) => {
    const decoded = xrplXAddress(address);
    return { kind: "an XRP X-address with a tag", address, account: decoded?.account ?? "", id: decoded?.tag ?? "" };
  });
  const muxed = stellarMuxedIn(text).map((address) => ({ kind: "a Stellar muxed address", address, account: stellarBaseAccount(address), id: stellarMuxedId(address) ?? "" }));
  return [...tagged, ...muxed];
}
