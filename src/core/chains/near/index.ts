/**
 * NEAR. An account id (nomicon, "Account ID"): 2 to 64 characters, lower-case letters, digits and
 * `-`, `_` inside parts separated by `.`; an implicit account (64 hex digits) and an Ethereum-style
 * one (`0x` and 40) are lower case too. A client may fold an account in capitals to it, which a deny
 * rule naming the account would not see: refused.
 */
import { spelledAs, type ChainFamily } from "../family.js";

const NEAR_ACCOUNT = /^(?=.{2,64}$)(?:(?:[a-z0-9]+[-_])*[a-z0-9]+\.)*(?:[a-z0-9]+[-_])*[a-z0-9]+$/;

export const near: ChainFamily = {
  name: "near",
  networks: /^near-/,
  readAccount: spelledAs(NEAR_ACCOUNT, "a NEAR account must be written as its account id, in lower case"),
};
