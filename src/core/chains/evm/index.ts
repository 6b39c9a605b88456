/**
 * The EVM family. An account is `0x` and 40 hex digits and nothing else: an ENS name, 32 bytes of
 * hex whose last 20 are the account (go-ethereum's HexToAddress keeps those), an ICAP `XE…`, an
 * EIP-681 `ethereum:0x…` or `0X…` is a spelling a client may resolve to an account while rules,
 * the address book and the windows see other text: a deny rule naming `0x5290…` would not catch it,
 * and each would open a per-destination window group of its own. Refused, never resolved.
 */
import { accepted, refused, type ChainFamily } from "../family.js";
import { evmObjects, evmStatedSmallestUnits } from "./calldata.js";
import { evmChainIds } from "./chain-ids.js";
import { EVM_FEES } from "./fee.js";
import { EVM_DECIMALS, EVM_NETWORK, isEvmAddress } from "./networks.js";

export const EVM_SPELLING = "an EVM address must be written 0x and 40 hex digits";

export const evm: ChainFamily = {
  name: "evm",
  networks: EVM_NETWORK,
  nativeDecimals: EVM_DECIMALS,
  readAccount: (address) => (isEvmAddress(address) ? accepted(address) : refused(EVM_SPELLING)),
  // `0x` and 40 hex digits, compared without case as rules and the copy compare it. Any other
  // spelling (`0X…`, the digits alone, 32 bytes, an ENS name) would be compared as written, so the
  // copy would not find another wallet's address in it and a source named by wallet be believed.
  senders: [{ object: "evmTransaction", field: "fromAddress", chain: "EVM", account: (address) => (isEvmAddress(address) ? address : null) }],
  fees: EVM_FEES,
  checkChainIds: evmChainIds,
  classifyObjects: evmObjects,
  statedSmallestUnits: evmStatedSmallestUnits,
};
