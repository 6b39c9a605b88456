/**
 * Stellar. Its transfers come from a Stellar transaction's operations and signed envelope (api.ts,
 * details.ts, envelope.ts, xdr.ts), its accounts are strkeys checked as they are decoded, and its
 * fee is the envelope's (a fee bump's outer fee) or else `stellarTransaction.fee`, in stroops.
 */
import type { Fee } from "../../transaction/types.js";
import type { ChainFamily } from "../family.js";
import { inWholeUnits } from "../fee-units.js";
import { smallestUnitFee } from "../smallest-unit-fee.js";
import { fromApiStellar } from "./api.js";
import { STELLAR_DECIMALS, STELLAR_NETWORK } from "./assets.js";
import { fromStellarDetails } from "./details.js";

export const stellar: ChainFamily = {
  name: "stellar",
  networks: STELLAR_NETWORK,
  nativeDecimals: STELLAR_DECIMALS,
  fees: [smallestUnitFee("stellarTransaction", "fee", STELLAR_DECIMALS)],
  transferObject: { key: "stellarTransaction", fromApi: fromApiStellar, fromDetails: fromStellarDetails },
};

/** The fee of a signed envelope, in stroops, in lumens. */
export const envelopeFee = (stroops: string, network: string | null): Fee => inWholeUnits(stroops, STELLAR_DECIMALS, network);
