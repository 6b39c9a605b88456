/**
 * Hedera. Rules, the address book and the windows know an account as `0.0.N`. Its SDKs and the
 * network also take the same account as `0.0.N-abcde` (HIP-15: the id and a checksum of the
 * ledger, which the SDKs parse away), as its long-zero EVM address (`0x` and N in 40 hex digits)
 * or its EVM alias (`0x…`, or `0.0.` and the alias): a deny rule naming `0.0.12345` would not see
 * `0.0.12345-vfmkw` or `0x…3039`, and each would open a window group of its own. Only
 * `shard.realm.num` in plain decimals is taken: every other spelling is refused, never converted
 * (an alias names no number the body shows).
 */
import { spelledAs, type ChainFamily } from "../family.js";

const HEDERA_ACCOUNT = /^(?:0|[1-9][0-9]*)\.(?:0|[1-9][0-9]*)\.(?:0|[1-9][0-9]*)$/;

export const hedera: ChainFamily = {
  name: "hedera",
  networks: /^hedera-/,
  readAccount: spelledAs(HEDERA_ACCOUNT, "a Hedera account must be written shard.realm.num (0.0.12345), without a checksum or an EVM address"),
};
