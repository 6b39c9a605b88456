/**
 * Failures of the custody API client and the address-book sync, as values with a code.
 * A message names the operation and the vault; it never carries the bearer token or key
 * material. Text that comes from the server is redacted before it is kept, because a server
 * (or a proxy in front of it) may echo the request's Authorization header back.
 */

export type CustodyOperation =
  "ListAddressBookEntries" | "ListWallets" | "ListWalletAddresses" | "ServiceAccountToken" | "SyncVault" | "GetAsset" | "BatchGetAssets" | "GetVaultAsset" | "GetTransaction";

export type CustodyErrorCode =
  /** The service-account key cannot sign (unreadable PEM, not RSA). */
  | "CREDENTIALS"
  /** 401: the API refused the token (wrong key, expired, wrong audience or subject). */
  | "UNAUTHENTICATED"
  /** 403: the service account is not a member of the vault or lacks the role. */
  | "PERMISSION_DENIED"
  | "NOT_FOUND"
  /** Another 4xx: the request itself is wrong; retrying cannot help. */
  | "REJECTED"
  /** 429 after the last attempt. */
  | "RATE_LIMITED"
  /** 5xx after the last attempt. */
  | "UNAVAILABLE"
  | "TIMEOUT"
  | "NETWORK"
  /** The answer is not JSON or does not have the documented shape. */
  | "BAD_RESPONSE"
  /**
   * A 200 answer holding none of the list's documented fields but others: an error status or
   * another method's answer (a misrouted gateway), not an empty list.
   */
  | "NOT_A_LIST"
  /**
   * More than a sync reads: a page holding more items than the pageSize asked for, or a vault's
   * sync past its total items or bytes (sync-budget.ts).
   */
  | "TOO_LARGE"
  /** The server kept paging past the limit or repeated a page token. */
  | "PAGING"
  /** The data contradicts itself (e.g. an entry named under another vault). */
  | "INCONSISTENT"
  /** The database could not store the copy. */
  | "STORE";

/** What each failure means, in words that name no host, address or server text (for open status pages). */
export const PUBLIC_SYNC_ERRORS: Readonly<Record<CustodyErrorCode, string>> = {
  CREDENTIALS: "the service-account key cannot sign",
  UNAUTHENTICATED: "the custody API refused the service account's token",
  PERMISSION_DENIED: "the service account may not read this vault",
  NOT_FOUND: "the custody API does not know this vault",
  REJECTED: "the custody API refused the request",
  RATE_LIMITED: "the custody API kept answering too many requests",
  UNAVAILABLE: "the custody API kept answering with a server error",
  TIMEOUT: "the custody API did not answer in time",
  NETWORK: "the custody API could not be reached",
  BAD_RESPONSE: "the custody API answered in an unexpected shape",
  NOT_A_LIST: "the custody API answered with something other than the list asked for",
  TOO_LARGE: "the custody API sent more than a sync reads",
  PAGING: "the custody API's paging did not end",
  INCONSISTENT: "the custody API's data contradicts itself",
  STORE: "the copy could not be stored",
};

export class CustodyApiError extends Error {
  override readonly name = "CustodyApiError";

  constructor(
    readonly code: CustodyErrorCode,
    readonly operation: CustodyOperation,
    /** `vaults/{id}`, or null for failures that concern no vault (the token). */
    readonly vault: string | null,
    /** What went wrong, already redacted. */
    readonly detail: string,
    /** HTTP status of the last answer, when there was one. */
    readonly httpStatus: number | null = null,
    readonly attempts = 1,
  ) {
    super(`${operation}${vault === null ? "" : ` for ${vault}`} failed (${code}): ${detail}`);
  }

  /** A plain object for logs, status endpoints and the sync status row. */
  toJSON(): { code: CustodyErrorCode; operation: CustodyOperation; vault: string | null; message: string } {
    return { code: this.code, operation: this.operation, vault: this.vault, message: this.message };
  }
}

const JWT_LIKE = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*\.?[A-Za-z0-9_-]*/g;
const PEM_BLOCK = /-----BEGIN [^-]+-----[\s\S]*?(-----END [^-]+-----|$)/g;
const MAX_DETAIL = 300;

/** Removes secrets from text that may have come from a server or a library, and bounds its length. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length > 0) out = out.split(secret).join("[redacted]");
  out = out.replace(JWT_LIKE, "[redacted]").replace(PEM_BLOCK, "[redacted]");
  return out.length > MAX_DETAIL ? `${out.slice(0, MAX_DETAIL)}…` : out;
}
