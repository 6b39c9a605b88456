/**
 * Bitcoin and the chains that write their coins as it does (Litecoin, Dogecoin: 8 decimals). An
 * address is written with letters and digits only (Base58Check, or bech32 and bech32m), so never a
 * BIP-21 URI (`bitcoin:…`, `…?amount=`) or a name, which a deny rule naming the address would not
 * see. The checksum is the chain's to refuse.
 */
import { spelledAs, type ChainFamily } from "../family.js";
import { BITCOIN_FEES } from "./fee.js";
import { btcObjects } from "./outputs.js";

const BITCOIN_ADDRESS = /^[A-Za-z0-9]+$/;

export const bitcoin: ChainFamily = {
  name: "bitcoin",
  networks: /^(bitcoin|litecoin|dogecoin)-/,
  nativeDecimals: 8,
  readAccount: spelledAs(BITCOIN_ADDRESS, "a Bitcoin address must be written in Base58Check or bech32, not as a URI or a name"),
  fees: BITCOIN_FEES,
  classifyObjects: btcObjects,
};
