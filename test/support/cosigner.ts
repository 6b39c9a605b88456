/**
 * A co-signer simulator: what `cosigner run --webhook-url URL` does with each transaction that
 * awaits its signature, per the custody reference — POST the transaction object, then sign on
 * 200 + `signTransaction: true`, cancel on 200 + `false`, and leave it pending on anything else
 * (another status, a timeout, an unreachable URL), to ask again on the next poll.
 *
 * With a `platform` (the simulated custody API), each transaction it delivers is one the platform
 * holds: handed to the platform first, as the real co-signer only delivers what the platform asks
 * it to sign. Without one, or with a raw `body`, it posts what it is given, as anyone holding the
 * webhook token could.
 */
export type CosignerVerdict = "signed" | "canceled" | "pending";

export interface Delivery {
  verdict: CosignerVerdict;
  status: number | null;
  body: unknown;
  headers: Headers | null;
}

export interface CosignerOptions {
  webhookUrl: string;
  /** Added as `Authorization: Bearer` when set. */
  token?: string;
  timeoutMs?: number;
  /** The simulated custody platform that holds what this co-signer delivers. */
  platform?: { holdTransaction(transaction: unknown): void };
}

export class CosignerSimulator {
  constructor(private readonly options: CosignerOptions) {}

  async deliver(transaction: unknown, init: { body?: string; headers?: Record<string, string> } = {}): Promise<Delivery> {
    if (init.body === undefined) this.options.platform?.holdTransaction(transaction);
    const headers: Record<string, string> = { "content-type": "application/json", ...init.headers };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    let response: Response;
    try {
      response = await fetch(this.options.webhookUrl, {
        method: "POST",
        headers,
        body: init.body ?? JSON.stringify(transaction),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
      });
    } catch {
      return { verdict: "pending", status: null, body: null, headers: null };
    }
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: the co-signer treats it as "no decision"
    }
    return { verdict: verdictOf(response.status, body), status: response.status, body, headers: response.headers };
  }

  /** One poll: every pending transaction is asked about; returns what happened to each name. */
  async poll(pending: readonly { name: string }[]): Promise<Map<string, Delivery>> {
    const results = new Map<string, Delivery>();
    for (const tx of pending) results.set(tx.name, await this.deliver(tx));
    return results;
  }
}

function verdictOf(status: number, body: unknown): CosignerVerdict {
  if (status !== 200 || typeof body !== "object" || body === null) return "pending";
  const sign = (body as { signTransaction?: unknown }).signTransaction;
  if (sign === true) return "signed";
  if (sign === false) return "canceled";
  return "pending";
}
