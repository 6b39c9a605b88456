/**
 * One GET against the custody API, with the service-account bearer token, a per-request timeout
 * and bounded retries. Retried: 429, 5xx, network errors and timeouts — the request is a read, so
 * repeating it is harmless. Never retried: any other 4xx, because the same request gets the same
 * answer. Every failure is a CustodyApiError naming the operation and the vault; server text is
 * redacted so the token never reaches a log or a status endpoint.
 */
import { err, ok, type Result } from "../core/errors.js";
import { CustodyApiError, redact, type CustodyErrorCode, type CustodyOperation } from "./errors.js";
import type { ServiceAccountTokenSource } from "./service-account-token.js";
import type { SyncBudget } from "./sync-budget.js";

export interface RetryPolicy {
  /** Attempts in all, including the first. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface CustodyHttpOptions {
  /** API base address without a trailing slash. */
  baseUrl: string;
  tokens: ServiceAccountTokenSource;
  fetch?: typeof fetch;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  sleep?: (ms: number) => Promise<void>;
  /** [0, 1), for jitter. */
  random?: () => number;
  /** The clock `until` is read on (performance.now()). */
  now?: () => number;
  /** The largest answer read, in bytes (DEFAULT_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
}

export interface RequestTarget {
  operation: CustodyOperation;
  /** `vaults/{id}` */
  vault: string;
  path: string;
  query: URLSearchParams;
  /** The sync this read belongs to: a successful answer's bytes count against its total. */
  budget?: SyncBudget;
  /**
   * A performance.now() instant the read must be over by (a decision's deadline): each attempt's
   * timeout is cut to it, and a retry whose back-off would end past it is not made.
   */
  until?: number;
}

export type CustodyGet = (target: RequestTarget) => Promise<Result<unknown, CustodyApiError>>;

type Attempt = { ok: true; body: unknown } | { ok: false; code: CustodyErrorCode; detail: string; status: number | null; retryable: boolean; retryAfterMs?: number };

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 10_000 };
const DEFAULT_TIMEOUT_MS = 10_000;
/**
 * A page of 1,000 entries or wallets is well under a megabyte; an answer past this is not one the
 * API documents, and is not read into memory whole (the sync runs in the deciding process).
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export function createCustodyGet(options: CustodyHttpOptions): CustodyGet {
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const fetchFn = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const now = options.now ?? (() => performance.now());

  return async (target) => {
    let lastFailure: CustodyApiError | null = null;
    for (let attempt = 1; ; attempt++) {
      let token: string;
      try {
        token = await options.tokens.token();
      } catch (cause) {
        return err(asCredentialsError(cause, target));
      }
      const url = `${options.baseUrl}${target.path}?${target.query.toString()}`;
      const left = target.until === undefined ? timeoutMs : Math.floor(target.until - now());
      // A back-off that ended late (a busy machine wakes a timer late) makes no attempt past the
      // deadline, and the read fails with what the API last said rather than with the clock.
      if (left <= 0 && lastFailure !== null) return err(lastFailure);
      const outcome = left <= 0 ? noTimeLeft() : await attemptOnce(fetchFn, url, token, { timeoutMs: Math.min(timeoutMs, left), maxBytes, budget: target.budget });
      if (outcome.ok) return ok(outcome.body);
      if (outcome.status === 401) options.tokens.invalidate();
      const pause = backoffMs(attempt, retry, random, outcome.retryAfterMs);
      const pastDeadline = target.until !== undefined && now() + pause >= target.until;
      const detail = `${redact(outcome.detail, [token])} (after ${attempt} attempt${attempt === 1 ? "" : "s"})`;
      lastFailure = new CustodyApiError(outcome.code, target.operation, target.vault, detail, outcome.status, attempt);
      if (!outcome.retryable || attempt >= retry.maxAttempts || pastDeadline) return err(lastFailure);
      await sleep(pause);
    }
  };
}

interface AttemptLimits {
  timeoutMs: number;
  maxBytes: number;
  budget: SyncBudget | undefined;
}

async function attemptOnce(fetchFn: typeof fetch, url: string, token: string, { timeoutMs, maxBytes, budget }: AttemptLimits): Promise<Attempt> {
  let status: number | null = null;
  try {
    // One signal covers the headers and the body: a server that stalls mid-body times out too.
    const response = await fetchFn(url, {
      method: "GET",
      headers: { authorization: `Bearer ${token}`, accept: "application/json" },
      signal: AbortSignal.timeout(timeoutMs),
      // A redirect would carry the question elsewhere; treat it as an answer we do not follow.
      redirect: "manual",
    });
    status = response.status;
    // Only a successful answer's bytes are kept (parsed into the copy), so only they count.
    const text = await readLimited(response, maxBytes, response.ok ? budget : undefined);
    if (text === ANSWER_TOO_LARGE) return { ok: false, code: "BAD_RESPONSE", detail: `HTTP ${status} with an answer larger than ${maxBytes} bytes`, status, retryable: false };
    if (text === SYNC_OVER_BUDGET) return { ok: false, code: "TOO_LARGE", detail: `the sync's answers passed ${budget?.limits.maxBytes} bytes in all`, status, retryable: false };
    if (response.ok) return parseBody(text, status);
    return failedStatus(status, text, response.headers.get("retry-after"));
  } catch (cause) {
    const timedOut = cause instanceof Error && (cause.name === "TimeoutError" || cause.name === "AbortError");
    if (timedOut) return { ok: false, code: "TIMEOUT", detail: `no answer within ${timeoutMs} ms`, status, retryable: true };
    return { ok: false, code: "NETWORK", detail: `network error: ${describeNetworkError(cause)}`, status, retryable: true };
  }
}

/** A read whose deadline came before its attempt could start. */
function noTimeLeft(): Attempt {
  return { ok: false, code: "TIMEOUT", detail: "no time left before the deadline", status: null, retryable: false };
}

const ANSWER_TOO_LARGE = Symbol("answer too large");
const SYNC_OVER_BUDGET = Symbol("sync over budget");

/**
 * The body as text; ANSWER_TOO_LARGE once it passes `maxBytes`, SYNC_OVER_BUDGET once the sync's
 * bytes pass its budget (counted as they arrive, so concurrent reads share it exactly); the rest
 * is not read.
 */
async function readLimited(response: Response, maxBytes: number, budget: SyncBudget | undefined): Promise<string | typeof ANSWER_TOO_LARGE | typeof SYNC_OVER_BUDGET> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    return ANSWER_TOO_LARGE;
  }
  if (response.body === null) return "";
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return ANSWER_TOO_LARGE;
    }
    if (budget !== undefined && !budget.takeBytes(value.byteLength)) {
      await reader.cancel();
      return SYNC_OVER_BUDGET;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function parseBody(text: string, status: number): Attempt {
  try {
    return { ok: true, body: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, code: "BAD_RESPONSE", detail: `HTTP ${status} with a body that is not JSON`, status, retryable: false };
  }
}

function failedStatus(status: number, text: string, retryAfter: string | null): Attempt {
  const detail = `HTTP ${status}${serverMessage(text)}`;
  const retryAfterMs = parseRetryAfter(retryAfter);
  if (status === 429) return { ok: false, code: "RATE_LIMITED", detail, status, retryable: true, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  if (status >= 500) return { ok: false, code: "UNAVAILABLE", detail, status, retryable: true, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  const code: CustodyErrorCode = status === 401 ? "UNAUTHENTICATED" : status === 403 ? "PERMISSION_DENIED" : status === 404 ? "NOT_FOUND" : "REJECTED";
  return { ok: false, code, detail, status, retryable: false };
}

/** The googlerpcStatus `message` of an error body, when there is one. */
function serverMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: { message?: unknown } };
    const message = typeof body.message === "string" ? body.message : typeof body.error?.message === "string" ? body.error.message : undefined;
    return message === undefined || message === "" ? "" : `: ${message}`;
  } catch {
    return "";
  }
}

function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || !/^[0-9]{1,6}$/.test(value.trim())) return undefined;
  return Number(value.trim()) * 1000;
}

/** Exponential back-off with "equal jitter": never shorter than half the step, never zero. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number, retryAfterMs?: number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jittered = step / 2 + (random() * step) / 2;
  return Math.min(policy.maxDelayMs, Math.max(jittered, retryAfterMs ?? 0));
}

function describeNetworkError(cause: unknown): string {
  if (!(cause instanceof Error)) return "unknown";
  const inner = cause.cause instanceof Error ? ` (${cause.cause.message})` : "";
  return `${cause.message}${inner}`;
}

/** Re-labelled with the operation and vault that needed the token. */
function asCredentialsError(cause: unknown, target: RequestTarget): CustodyApiError {
  const detail = cause instanceof CustodyApiError ? cause.detail : "the service-account token could not be made";
  return new CustodyApiError("CREDENTIALS", target.operation, target.vault, detail, null, 0);
}
