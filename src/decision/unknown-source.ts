/**
 * A window grouped by `sourceWallet` charges a transfer to its source wallet, or to the source
 * address when no wallet is known (CONTRACT.md section 4). The custody API lets the initiator name
 * a source as the wallet or as its raw address, so one wallet could be charged under two groups,
 * each with the whole limit. A raw address is therefore judged only once the synced copy of the
 * vault's own wallets says whose it is; until then the transfer is not evaluated:
 *
 * - sync configured, the address not (yet) a wallet of the vault in the copy: defer. A wallet made
 *   since the last sync is known after the next one; the co-signer asks again.
 * - sync not configured: deny. No copy will ever say, and a deferral would be asked again at every
 *   poll, forever; the initiator can name the wallet instead.
 *
 * A source the body names as a wallet (or a wallet's address resource), or that `request.sourceWallet`
 * stands for, is known. Windows grouped without `sourceWallet` are unaffected.
 */
import type { AddressBookView } from "../addressbook/types.js";
import type { TransferFacts } from "../facts/types.js";
import type { WindowSpec } from "../policy/types.js";

export type UnknownSource = { decision: "defer" | "deny"; reason: string };

export function unknownSourceHold(windows: readonly WindowSpec[], transfers: readonly TransferFacts[], view: AddressBookView): UnknownSource | null {
  if (!windows.some((w) => w.groupBy.includes("sourceWallet"))) return null;
  const unknown = transfers.find((t) => t.source.wallet === null);
  if (!unknown) return null;
  const address = unknown.source.address ?? unknown.source.value;
  return view.configured
    ? { decision: "defer", reason: `source ${address} is not a wallet of ${view.vault} in the synced copy yet: a window groups by source wallet` }
    : { decision: "deny", reason: `source ${address} is a raw address and, without address-book sync, its wallet cannot be known: a window groups by source wallet; name the wallet instead` };
}
