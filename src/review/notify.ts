/**
 * The optional notification when a review opens (COUNTERSIGN_REVIEW_WEBHOOK_URL): Slack-compatible
 * JSON (`{"text": ...}`), posted after the decision is committed, retried with exponential back-off
 * on network errors, 429 and 5xx. It never blocks or fails a decision: `opened` only queues.
 */
import { describeError, type Logger } from "../log.js";
import type { PolicyBundle } from "../core/policy/types.js";
import type { Explanation } from "./explanation.js";
import { initiatorNote, needs } from "./needs.js";
import { printable } from "./printable.js";
import type { StoredReview } from "./store.js";

export interface NotifierOptions {
  url: string;
  logger: Logger;
  attempts?: number;
  baseDelayMs?: number;
  timeoutMs?: number;
}

export class ReviewNotifier {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly options: NotifierOptions) {}

  /** `bundle`: the one the opening delivery was decided under, whose groups the needs are counted in. */
  opened(review: StoredReview, bundle: Pick<PolicyBundle, "reviewers">): void {
    if (this.stopped) return;
    this.attempt(JSON.stringify(message(review, bundle)), review.transactionName, 1);
  }

  /** Cancels pending retries and waits for requests already sent. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  private attempt(body: string, transaction: string, n: number): void {
    const sending = this.send(body).then((outcome) => {
      if (outcome === "sent" || outcome === "refused") {
        if (outcome === "refused") this.options.logger.warn({ transaction }, "review notification refused by the webhook; not retried");
        return;
      }
      const attempts = this.options.attempts ?? 5;
      if (n >= attempts || this.stopped) {
        this.options.logger.warn({ transaction, attempts: n }, "review notification not delivered; giving up");
        return;
      }
      const base = this.options.baseDelayMs ?? 1000;
      const delay = base * 2 ** (n - 1) * (1 + Math.random() * 0.2);
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.attempt(body, transaction, n + 1);
      }, delay);
      timer.unref();
      this.timers.add(timer);
    });
    this.inFlight.add(sending);
    void sending.finally(() => this.inFlight.delete(sending));
  }

  private async send(body: string): Promise<"sent" | "retry" | "refused"> {
    try {
      const response = await fetch(this.options.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 5000),
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.ok) return "sent";
      return response.status === 429 || response.status >= 500 ? "retry" : "refused";
    } catch (error) {
      // The hook URL is itself a credential, and fetch quotes the URL it refuses in its error.
      const { error: text, ...rest } = describeError(error);
      this.options.logger.debug({ ...rest, error: text.split(this.options.url).join("[hook URL]") }, "review notification failed; will retry");
      return "retry";
    }
  }
}

/** Slack's incoming-webhook format: `text`, shown by Slack and by the many services that accept its payload. */
export function message(review: StoredReview, bundle: Pick<PolicyBundle, "reviewers">): { text: string } {
  const explanation = review.explanation as Partial<Explanation>;
  const transfers = (explanation.transfers ?? []).map((t) => `${t.amount ?? t.rawAmount ?? "?"} ${t.asset} to ${clip(t.destinationName ?? t.destination)}`);
  const why = (explanation.deferredBy ?? []).map((r) => r.reason ?? r.rule);
  // As the review page counts it: one more than the rule's quorum when the initiator could be
  // among the approvers unrecognised, said once per group why.
  const groups = [...new Set(review.requirements.map((r) => r.group))];
  const needed = review.requirements.map((r) => needs(bundle, r.group, r.quorum, review.initiator)).join(", ");
  const notes = [...new Set(groups.map((g) => initiatorNote(bundle, g, review.initiator)))].join("");
  // What the transfers do not show comes first, and the body's lists and text are cut short: Slack
  // truncates a text past 40,000 characters, and a batch of 1,000 transfers or a body key of 50,000
  // characters (a payload is named by its path) pushed the rest out of the message.
  const lines = [
    `Review needed: ${review.transactionName}`,
    ...(explanation.payloads && explanation.payloads.length > 0 ? [`Also carries (not shown as transfers): ${listed(explanation.payloads.map(clip), "see the review page")}`] : []),
    ...(explanation.memo ? [`Memo: ${explanation.memo.type} ${clip(explanation.memo.data)}`] : []),
    ...(explanation.fee ? [`Network fee: ${explanation.fee.amount} ${explanation.fee.asset ?? "in a coin countersign cannot tell"}`] : []),
    ...(transfers.length > 0 ? [`Transfers (${transfers.length}): ${listed(transfers, "see the review page")}`] : []),
    ...(why.length > 0 ? [`Why: ${why.join("; ")}`] : []),
    `Needs: ${needed}${notes}; expires ${review.expiresAt.toISOString()}`,
  ];
  return { text: lines.map(slackText).join("\n") };
}

/** The most items of a list, and the most characters of a text from the body, a notification quotes. */
const LISTED = 10;
const CLIPPED = 100;

const clip = (text: string): string => {
  const chars = [...text];
  return chars.length > CLIPPED ? `${chars.slice(0, CLIPPED).join("")}…` : text;
};

const listed = (items: readonly string[], rest: string): string =>
  items.length > LISTED ? `${items.slice(0, LISTED).join("; ")}; … and ${items.length - LISTED} more (${rest})` : items.join("; ");

/**
 * A line as Slack's `text` must carry it: `&`, `<` and `>` escaped, as Slack reads `<…>` as a link
 * (`<https://…|title>`) or a mention (`<!channel>`), and control, format and line-separator
 * characters as `\uXXXX` (src/review/printable.ts). A memo, a body's own keys (a payload is named by
 * its path) and an address-book name are the initiator's or the platform's text: without this they
 * put links and channel-wide mentions of their own in the reviewers' channel.
 */
const slackText = (line: string): string => printable(line).replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]!);
