/**
 * The review page's HTML (server-rendered; no scripts at all, so the Content-Security-Policy can
 * forbid them): the login form, the queue, one review with its explanation and the action forms.
 * Every value is escaped (esc).
 */
import type { Facts } from "../core/facts/types.js";
import type { Explanation } from "./explanation.js";
import { unrecognisedInitiatorNote, UNKNOWN_INITIATOR_NOTE } from "./needs.js";
import { markupText } from "./printable.js";
import type { ReviewView } from "./view.js";

/**
 * HTML-escaped, with control, format and line-separator characters shown as `\uXXXX` (printable.ts):
 * a bidi override in the body's text (a note, a payload named by a key of the body) otherwise
 * mirrors the page's own words after it, up to the end of the paragraph.
 */
export const esc = markupText;

export const pagePath = (name: string) => `/review/${name.split("/").map(encodeURIComponent).join("/")}`;

function layout(title: string, identity: string | null, body: string, csrf?: string): string {
  const who = identity
    ? `<div class="who">Signed in as <strong data-testid="identity">${esc(identity)}</strong>
       <form method="post" action="/review/logout"><input type="hidden" name="csrf" value="${esc(csrf)}"><button class="link">Sign out</button></form></div>`
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · countersign review</title><link rel="stylesheet" href="/review/review.css"></head>
<body><header><a class="brand" href="/review">countersign · review</a>${who}</header><main>${body}</main></body></html>`;
}

export function loginPage(message: string | null): string {
  return layout(
    "Sign in",
    null,
    `<h1>Sign in to review</h1>
     ${message ? `<p class="error" role="alert">${esc(message)}</p>` : ""}
     <form method="post" action="/review/login" class="card">
       <label for="token">Reviewer token or OpenID Connect ID token</label>
       <input id="token" name="token" type="password" autocomplete="off" required>
       <button type="submit">Sign in</button>
     </form>`,
  );
}

const stateBadge = (state: string) => `<span class="badge ${esc(state)}" data-testid="state">${esc(state)}</span>`;
const approvalCount = (r: ReviewView) => r.requirements.map((q) => `${q.approvals.length} of ${q.quorum} · ${esc(q.group)}`).join("<br>");

export function queuePage(identity: string, csrf: string, reviews: ReviewView[]): string {
  const rows = reviews
    .map((r) => {
      const e = r.explanation as Partial<Explanation>;
      // What the transfers do not show comes first: a batch of 1,000 transfers pushed it a thousand lines down.
      const carries = e.payloads === undefined ? [] : e.payloads.map((p) => `<strong class="error">+ ${esc(p)}</strong>`);
      const what = [...carries, ...(e.transfers ?? []).map((t) => `${esc(t.amount ?? t.rawAmount)} ${esc(shortAsset(t.asset))} → ${esc(t.destinationName ?? t.destination)}`)].join(
        "<br>",
      );
      return `<tr><td>${stateBadge(r.state)}</td><td><a href="${esc(pagePath(r.transactionName))}">${esc(r.transactionName)}</a></td>
        <td>${what}</td><td>${approvalCount(r)}</td><td>${esc(r.expiresAt)}</td></tr>`;
    })
    .join("");
  const table =
    reviews.length === 0
      ? `<p class="empty">Nothing waits for review.</p>`
      : `<table><thead><tr><th>State</th><th>Transaction</th><th>Transfers</th><th>Approvals</th><th>Expires</th></tr></thead><tbody>${rows}</tbody></table>`;
  return layout("Queue", identity, `<h1>Reviews</h1>${table}`, csrf);
}

/** A window's use before → after this transaction: dollars, units of one asset, or transfers. */
function windowUse(w: Facts["velocity"][string]): string {
  if (w.usd !== undefined) return `$${esc(w.usd)} → $${esc(w.usdAfter)}`;
  return w.amount !== undefined ? `${esc(w.amount)} → ${esc(w.amountAfter)}` : `${esc(w.count)} → ${esc(w.countAfter)} transfers`;
}

export function reviewPage(identity: string, csrf: string, r: ReviewView, notice: string | null): string {
  const e = r.explanation as Partial<Explanation>;
  const transfers = (e.transfers ?? [])
    .map((t) => {
      const windows = Object.entries(t.velocity ?? {})
        .map(([name, w]) => `${esc(name)}: ${windowUse(w)}`)
        .join("<br>");
      const where = t.destinationName ? `${esc(t.destinationName)}<br><code>${esc(t.destination)}</code>` : `<code>${esc(t.destination)}</code>`;
      const tags = [t.destinationInAddressBook ? "address book" : null, t.destinationInternal ? "own wallet" : null].filter(Boolean).join(", ");
      const dollars = t.usd ? `<div class="muted" data-testid="usd">$${esc(t.usd)} at $${esc(t.usdPrice)}</div>` : "";
      return `<tr><td class="amount">${esc(t.amount ?? `${t.rawAmount} (raw)`)}${dollars}</td><td><code>${esc(t.asset)}</code></td><td><code>${esc(t.source)}</code></td>
        <td>${where}${tags ? `<div class="tag">${esc(tags)}</div>` : ""}</td><td>${windows}</td></tr>`;
    })
    .join("");
  const rules = (e.deferredBy ?? [])
    .map(
      (d) =>
        `<li><strong>${esc(d.rule)}</strong>${d.reason ? `: ${esc(d.reason)}` : ""}${d.review ? ` <span class="muted">(needs ${esc(d.review.quorum)} of ${esc(d.review.group)})</span>` : ""}</li>`,
    )
    .join("");
  const approvals = r.requirements
    .map(
      (q) =>
        `<li>${esc(q.group)}: ${q.approvals.length} of ${q.quorum}${raisedNote(e, q)}${q.approvals.map((a) => `<div class="muted">✓ ${esc(a.identity)} · ${esc(a.at)}${a.comment ? ` · “${esc(a.comment)}”` : ""}</div>`).join("")}</li>`,
    )
    .join("");
  // The transfers are not all a transaction with a payload does (an allowance, calldata, a
  // delegation): say so above them, in words, so nobody approves only the part they were shown.
  const payloads =
    e.payloads === undefined
      ? `<p class="error" role="alert" data-testid="payloads">This review was opened before countersign recorded what a transaction carries beside its transfers: check the transaction on the platform before approving.</p>`
      : e.payloads.length > 0
        ? `<p class="error" role="alert" data-testid="payloads">This transaction does more than its transfers: it carries ${e.payloads.map((p) => `<code>${esc(p)}</code>`).join(", ")}. Check those on the platform before approving: approving releases all of it.</p>`
        : "";
  const kind = [e.kind, e.type, e.subType]
    .filter((v) => v !== undefined && v !== null && v !== "")
    .map(esc)
    .join(" · ");
  const rejection = r.rejection ? `<p class="error">Rejected by ${esc(r.rejection.identity)} · ${esc(r.rejection.at)}: “${esc(r.rejection.comment)}”</p>` : "";
  const action = esc(pagePath(r.transactionName));
  const forms =
    r.state === "open"
      ? `<section class="card actions"><h2>Your decision</h2>
        <form method="post" action="${action}/approve"><input type="hidden" name="csrf" value="${esc(csrf)}">
          <label for="approve-comment">Comment (optional)</label><input id="approve-comment" name="comment" maxlength="2000">
          <button type="submit" class="approve">Approve</button></form>
        <form method="post" action="${action}/reject"><input type="hidden" name="csrf" value="${esc(csrf)}">
          <label for="reject-comment">Why reject? (required)</label><input id="reject-comment" name="comment" maxlength="2000" required>
          <button type="submit" class="reject">Reject</button></form></section>`
      : "";
  const body = `<p><a href="/review">← your reviews</a></p>
    <h1>${esc(r.transactionName)} ${stateBadge(r.state)}</h1>
    ${notice ? `<p class="notice" role="status" data-testid="notice">${esc(notice)}</p>` : ""}${rejection}
    ${payloads}<dl class="facts"><dt>Kind</dt><dd data-testid="kind">${kind || "—"}</dd><dt>Carries beside its transfers</dt><dd>${e.payloads === undefined ? "not recorded" : e.payloads.length === 0 ? "nothing" : e.payloads.map(esc).join(", ")}</dd><dt>Memo</dt><dd data-testid="memo">${memoHtml(e)}</dd><dt>Network fee</dt><dd data-testid="fee">${feeHtml(e)}</dd><dt>Initiator</dt><dd>${esc(e.initiator ?? "—")}</dd><dt>Note</dt><dd>${esc(e.note ?? "—")}</dd>
      <dt>Opened</dt><dd>${esc(r.openedAt)}</dd><dt>Expires</dt><dd>${esc(r.expiresAt)}</dd>
      <dt>Content digest</dt><dd><code>${esc(r.contentDigest)}</code></dd><dt>Policy</dt><dd>${esc(e.policyVersion ?? "")}</dd></dl>
    <h2>Transfers</h2><table><thead><tr><th>Amount</th><th>Asset</th><th>From</th><th>To</th><th>Window use (before → after)</th></tr></thead><tbody>${transfers}</tbody></table>
    <h2>Why it waits</h2><ul>${rules}</ul>
    <h2>Approvals</h2><ul>${approvals}</ul>${forms}`;
  return layout(r.transactionName, identity, body, csrf);
}

/** The memo, in full: an exchange credits a deposit to the account it names, whatever the address book calls the exchange. */
function memoHtml(e: Partial<Explanation>): string {
  if (e.memo === undefined) return "not recorded: check the transaction on the platform before approving";
  return e.memo === null ? "none" : `<code>${esc(e.memo.type)} ${esc(e.memo.data)}</code>`;
}

/** The network fee the body states: it leaves the wallet as a transfer does. */
function feeHtml(e: Partial<Explanation>): string {
  if (e.fee === undefined) return "not recorded: check the transaction on the platform before approving";
  return e.fee === null ? "not stated (the platform sets it)" : `${esc(e.fee.amount)} <code>${esc(e.fee.asset ?? "in a coin countersign cannot tell")}</code>`;
}

/**
 * Why a requirement needs more approvals than its rule asked at the opening (view.ts counts them as
 * the policy does): the initiator could be among the approvers without being recognised.
 */
function raisedNote(e: Partial<Explanation>, q: ReviewView["requirements"][number]): string {
  const asked = e.deferredBy?.find((d) => d.rule === q.rule)?.review?.quorum;
  if (asked === undefined || q.quorum <= asked) return "";
  const note = e.initiator ? unrecognisedInitiatorNote(e.initiator) : UNKNOWN_INITIATOR_NOTE;
  return ` <span class="muted" data-testid="initiator-note">${esc(note.trim())}</span>`;
}

export function messagePage(identity: string | null, csrf: string | undefined, title: string, message: string): string {
  return layout(title, identity, `<h1>${esc(title)}</h1><p class="error" role="alert">${esc(message)}</p><p><a href="/review">Back to the reviews</a></p>`, csrf);
}

/** `assets/native.ethereum-mainnet` → `native.ethereum-mainnet`; an ERC-20 keeps its contract, shortened. */
function shortAsset(asset: string): string {
  const bare = asset.replace(/^assets\//, "");
  return bare.length > 42 ? `${bare.slice(0, 28)}…${bare.slice(-6)}` : bare;
}

export const REVIEW_CSS = `
:root{--ink:#1d2433;--muted:#5b6475;--line:#d9dee7;--bg:#f6f7fb;--ok:#17803d;--bad:#b42318;--warn:#a15c00}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
header{display:flex;justify-content:space-between;align-items:center;padding:12px 24px;background:#111827;color:#fff}
header a.brand{color:#fff;text-decoration:none;font-weight:600}.who{display:flex;gap:12px;align-items:center}.who form{margin:0}
main{max-width:1100px;margin:0 auto;padding:24px}h1{font-size:22px;margin:8px 0 16px}h2{font-size:17px;margin:24px 0 8px}
table{width:100%;border-collapse:collapse;background:#fff;border:1px solid var(--line)}th,td{text-align:left;padding:8px 10px;border-bottom:1px solid var(--line);vertical-align:top}
th{background:#eef1f6;font-weight:600;font-size:13px}td.amount{font-weight:600;white-space:nowrap}code{font-size:12px;word-break:break-all}
.card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:16px;max-width:560px}.actions{max-width:none;display:grid;grid-template-columns:1fr 1fr;gap:16px}
.actions h2{grid-column:1/-1;margin:0}label{display:block;font-size:13px;color:var(--muted);margin:0 0 4px}
input{width:100%;padding:8px;border:1px solid var(--line);border-radius:6px;font:inherit;margin-bottom:10px}
button{padding:8px 16px;border:0;border-radius:6px;font:inherit;font-weight:600;cursor:pointer;background:#1f4fd1;color:#fff}
button.approve{background:var(--ok)}button.reject{background:var(--bad)}button.link{background:none;color:#cbd5e1;padding:0;font-weight:400;text-decoration:underline}
.badge{display:inline-block;padding:2px 8px;border-radius:10px;font-size:12px;font-weight:600;vertical-align:middle;background:#e5e7eb}
.badge.open{background:#fff4d6;color:var(--warn)}.badge.approved{background:#dcfce7;color:var(--ok)}.badge.rejected,.badge.expired{background:#fee2e2;color:var(--bad)}
.error{color:var(--bad)}.notice{background:#dcfce7;border:1px solid #86efac;padding:8px 12px;border-radius:6px}.muted,.tag{color:var(--muted);font-size:13px}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;background:#fff;border:1px solid var(--line);padding:12px 16px;border-radius:8px}dt{color:var(--muted)}dd{margin:0}
.empty{color:var(--muted)}
`;
