/**
 * `countersign review list|show|approve|reject`: an HTTP client of the running service's review API
 * (docs/interface.md section 9), at COUNTERSIGN_URL with the reviewer's COUNTERSIGN_REVIEWER_TOKEN.
 */
import { printable, readable } from "../review/printable.js";
import type { ReviewView } from "../review/view.js";
import { HTTPS_OR_LOOPBACK, isHttpsOrLoopback } from "../https-only.js";

const NAME = /^vaults\/([A-Za-z0-9_-]+)\/transactions\/([A-Za-z0-9_-]+)$/;
export const REVIEW_STATES = ["open", "approved", "rejected", "expired"] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];
const TIMEOUT_MS = 15_000;

export interface ReviewCliIo {
  out: (line: string) => void;
  fail: (line: string) => void;
  env: NodeJS.ProcessEnv;
}

/** One review command, as parsed: list the reviews, show one, or approve or reject it. */
export type ReviewRequest =
  | { verb: "list"; state?: ReviewState | undefined; json: boolean }
  | { verb: "show"; name: string; json: boolean }
  | { verb: "approve" | "reject"; name: string; comment?: string | undefined; json: boolean };

interface Answer {
  status: number;
  body: unknown;
}

export async function reviewCommand(request: ReviewRequest, io: ReviewCliIo): Promise<number> {
  const client = clientOf(io);
  if (typeof client === "string") return usage(io, client);
  const { json } = request;
  if (request.verb === "list") {
    const { state } = request;
    return report(io, await client.call("GET", `/v1/reviews${state ? `?state=${state}` : ""}`), (body) => {
      const reviews = (body as { reviews: ReviewView[] }).reviews;
      if (json) return io.out(jsonText(reviews));
      if (reviews.length === 0) return io.out("no reviews");
      for (const r of reviews) io.out(listLine(r));
    });
  }
  const match = NAME.exec(request.name);
  if (!match) return usage(io, "NAME is a transaction name: vaults/{vault_id}/transactions/{transaction_id}");
  const path = `/v1/vaults/${match[1]}/transactions/${match[2]}/review`;
  if (request.verb === "reject" && !request.comment?.trim()) return usage(io, "a rejection needs --comment saying why");
  const answer =
    request.verb === "show"
      ? await client.call("GET", path)
      : await client.call("POST", `${path}:${request.verb}`, request.comment === undefined ? {} : { comment: request.comment });
  return report(io, answer, (body) => (json ? io.out(jsonText(body)) : describe(body as ReviewView).forEach((l) => io.out(l))));
}

/** The client of the service at COUNTERSIGN_URL as the reviewer of COUNTERSIGN_REVIEWER_TOKEN, or what is missing. */
function clientOf(io: ReviewCliIo): ReviewClient | string {
  const token = io.env.COUNTERSIGN_REVIEWER_TOKEN?.trim();
  if (!token) return "set COUNTERSIGN_REVIEWER_TOKEN to your reviewer token or OIDC ID token";
  const base = io.env.COUNTERSIGN_URL?.trim() || "http://127.0.0.1:8080";
  // The token releases transfers held for review: it is not sent in clear across the network.
  if (!isHttpsOrLoopback(base)) return `COUNTERSIGN_URL ${HTTPS_OR_LOOPBACK}; your reviewer token is not sent in clear`;
  return new ReviewClient(base.replace(/\/+$/, ""), token);
}

/**
 * JSON for a terminal: JSON.stringify escapes C0 controls only, and a C1 control (U+009B is CSI to
 * terminals that read C1 in UTF-8) or a bidi override in the note would act there. Outside strings
 * the text holds only tabs and line breaks, which `readable` keeps; inside, `\uXXXX` is the same
 * string to any JSON reader.
 */
const jsonText = (value: unknown): string => readable(JSON.stringify(value, null, 2));

function usage(io: ReviewCliIo, problem: string): number {
  io.fail(`countersign review: ${problem}`);
  return 2;
}

function report(io: ReviewCliIo, answer: Answer | Error, print: (body: unknown) => void): number {
  if (answer instanceof Error) {
    io.fail(`countersign review: ${answer.message}`);
    return 1;
  }
  if (answer.status === 200) {
    print(answer.body);
    return 0;
  }
  const error = (answer.body as { error?: { code?: string; message?: string } } | null)?.error;
  io.fail(`countersign review: ${answer.status} ${error?.code ?? "ERROR"}: ${error?.message ?? "unexpected answer"}`);
  return 1;
}

class ReviewClient {
  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {}

  async call(method: "GET" | "POST", path: string, body?: unknown): Promise<Answer | Error> {
    try {
      const response = await fetch(`${this.base}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const text = await response.text();
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: reported by status
      }
      return { status: response.status, body: parsed };
    } catch (error) {
      return new Error(`cannot reach ${this.base}: ${(error as Error).message}`);
    }
  }
}

const approvalsOf = (r: ReviewView) => r.requirements.map((q) => `${q.approvals.length}/${q.quorum} ${q.group}`).join(", ");

function listLine(r: ReviewView): string {
  return `${r.state.padEnd(8)} ${r.transactionName}  ${approvalsOf(r)}  expires ${r.expiresAt}`;
}

function describe(r: ReviewView): string[] {
  const e = r.explanation as {
    kind?: string;
    type?: string | null;
    subType?: string | null;
    payloads?: string[];
    memo?: { type: string; data: string } | null;
    fee?: { asset: string | null; amount: string } | null;
    initiator?: string | null;
    note?: string | null;
    reasons?: string[];
    transfers?: { index: number; amount: string | null; rawAmount: string | null; asset: string; source: string; destination: string; destinationName: string | null }[];
    deferredBy?: { rule: string; reason: string | null }[];
  };
  // Every string of the review is printed through `printable`: the note, the kind and the
  // payload names are the initiator's, and a control character in them is an instruction to the
  // reviewer's terminal.
  const p = printable;
  const subKind = [e.type, e.subType]
    .filter((v) => v !== undefined && v !== null && v !== "")
    .map(p)
    .join(" · ");
  const lines = [
    `${p(r.transactionName)}: ${p(r.state)}`,
    `  opened ${p(r.openedAt)} (decision ${p(r.openedBy)}), expires ${p(r.expiresAt)}`,
    `  content digest ${p(r.contentDigest)}`,
    ...(e.kind ? [`  kind ${p(e.kind)}${subKind ? ` (${subKind})` : ""}`] : []),
    carries(e.payloads),
    ...memoAndFee(e.memo, e.fee),
    ...(e.initiator ? [`  initiator ${p(e.initiator)}`] : []),
    ...(e.note ? [`  note ${p(e.note)}`] : []),
    ...(e.transfers ?? []).map(
      (t) =>
        `  transfer ${t.index}: ${p(t.amount ?? `${t.rawAmount} (raw)`)} ${p(t.asset)} from ${p(t.source)} to ${p(t.destination)}${t.destinationName ? ` (${p(t.destinationName)})` : ""}`,
    ),
    ...(e.deferredBy ?? []).map((d) => `  deferred by ${p(d.rule)}${d.reason ? `: ${p(d.reason)}` : ""}`),
  ];
  for (const q of r.requirements) {
    lines.push(`  needs ${q.quorum} of ${p(q.group)} (rule ${p(q.rule)}): ${q.approvals.length} approved`);
    for (const a of q.approvals) lines.push(`    approved by ${p(a.identity)} at ${p(a.at)}${a.comment ? `: ${p(a.comment)}` : ""}`);
  }
  if (r.rejection) lines.push(`  rejected by ${p(r.rejection.identity)} at ${p(r.rejection.at)}: ${p(r.rejection.comment ?? "")}`);
  return lines;
}

/** The memo (whose account an exchange credits) and the network fee, as the page shows them. */
function memoAndFee(memo: { type: string; data: string } | null | undefined, fee: { asset: string | null; amount: string } | null | undefined): string[] {
  const unknown = "not recorded (the review was opened before countersign kept it): check the transaction on the platform before approving";
  return [
    `  memo ${memo === undefined ? unknown : memo === null ? "none" : `${printable(memo.type)} ${printable(memo.data)}`}`,
    `  network fee ${fee === undefined ? unknown : fee === null ? "not stated (the platform sets it)" : `${printable(fee.amount)} ${printable(fee.asset ?? "in a coin countersign cannot tell")}`}`,
  ];
}

/** What the transaction carries beside its transfers, in the page's words: approving releases it too. */
function carries(payloads: string[] | undefined): string {
  if (payloads === undefined)
    return "  carries beside its transfers: not recorded (the review was opened before countersign kept it): check the transaction on the platform before approving";
  if (payloads.length === 0) return "  carries beside its transfers: nothing";
  return `  carries beside its transfers: ${payloads.map(printable).join(", ")} (not shown as transfers: check them on the platform before approving; approving releases all of it)`;
}
