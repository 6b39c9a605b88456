/**
 * TON. An account is one whichever way it is spelt (raw `0:…`, bounceable `EQ…`, non-bounceable
 * `UQ…`: address.ts); a TON DNS name (`foundation.ton`) or a payment URI (`ton://…`, `ton:EQ…`) is
 * not one, and a deny rule naming the account would not see it: refused, never resolved.
 */
import { accepted, refused, type ChainFamily } from "../family.js";
import { tonAccount } from "./address.js";

export const ton: ChainFamily = {
  name: "ton",
  networks: /^ton-/,
  readAccount: (address) =>
    tonAccount(address) === null ? refused("a TON account must be written raw (0:…) or user-friendly (EQ…, UQ…), not as a name or a URI") : accepted(address),
  senders: [{ object: "tonTransaction", field: "sender", chain: "TON", account: (address) => (tonAccount(address) === null ? null : address) }],
};
