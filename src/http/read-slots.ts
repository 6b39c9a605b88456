/**
 * Slots for body reads that start before the sender is known (a signed event, a sign-in form): a
 * sender that never finishes its body holds its slot, and the bytes read so far, until the
 * server's request timeout. The total bounds the memory all senders hold together; the bound per
 * client (src/http/client-address.ts) keeps one sender from taking every slot, so an idle
 * connection flood from one address shuts out that address and no one else.
 */

export interface ReadBounds {
  /** Reads at once over all clients: what bounds memory. */
  total: number;
  /** Reads at once from one client. */
  perClient: number;
}

/** Why no slot was given: every slot is taken, or this client's share is. */
export type ReadRefusal = "all_busy" | "client_busy";

/** Gives back a slot; calling it again does nothing. */
export type ReleaseSlot = () => void;

export class ReadSlots {
  private taken = 0;
  private readonly byClient = new Map<string, number>();

  constructor(readonly bounds: ReadBounds) {}

  /** A slot for `client`, or why there is none. */
  take(client: string): { release: ReleaseSlot } | { refused: ReadRefusal } {
    const held = this.byClient.get(client) ?? 0;
    if (held >= this.bounds.perClient) return { refused: "client_busy" };
    if (this.taken >= this.bounds.total) return { refused: "all_busy" };
    this.taken++;
    this.byClient.set(client, held + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.taken--;
        const left = (this.byClient.get(client) ?? 1) - 1;
        if (left === 0) this.byClient.delete(client);
        else this.byClient.set(client, left);
      },
    };
  }
}
