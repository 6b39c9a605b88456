/**
 * Solana. An account is base58, 32 to 44 letters; wallets also pay an SNS name (`treasury.sol`) or
 * a payment URI, which a deny rule naming the account would not see: refused, never resolved. Only
 * the letters are checked, never the key: what is refused is another kind of text, not a typo the
 * chain refuses. The fee is `solanaTransaction.fee`, in lamports.
 */
import { spelledAs, type ChainFamily } from "../family.js";
import { smallestUnitFee } from "../smallest-unit-fee.js";

const SOLANA_ACCOUNT = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
/** Lamports per SOL. */
const SOLANA_DECIMALS = 9;

export const solana: ChainFamily = {
  name: "solana",
  networks: /^solana-/,
  nativeDecimals: SOLANA_DECIMALS,
  readAccount: spelledAs(SOLANA_ACCOUNT, "a Solana account must be written in base58, not as a name or a URI"),
  fees: [smallestUnitFee("solanaTransaction", "fee", SOLANA_DECIMALS)],
};
