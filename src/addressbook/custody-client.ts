/**
 * The three custody API list operations the address-book sync needs, each read to the end:
 * `pageSize=1000`, then `pageToken=<nextPageToken>` with every other parameter unchanged (the API
 * rejects a token whose parameters changed) until an answer has no token. A server that pages
 * forever, or hands back a token it already gave, fails the read instead of looping.
 */
import type { z } from "zod";
import type { CustodyApiConfig } from "../config.js";
import { err, ok, type Result } from "../core/errors.js";
import { CustodyApiError, redact, type CustodyOperation } from "./errors.js";
import {
  LIST_RESPONSE_FIELDS,
  listAddressBookEntriesResponse,
  listWalletAddressesResponse,
  listWalletsResponse,
  type ApiAddressBookEntry,
  type ApiWallet,
  type ApiWalletAddress,
  type ListOperation,
} from "./custody-schemas.js";
import { createCustodyGet, type CustodyGet, type CustodyHttpOptions } from "./custody-http.js";
import { createServiceAccountTokenSource } from "./service-account-token.js";
import { createSyncBudget, type SyncBudget } from "./sync-budget.js";

export type CustodyResult<T> = Promise<Result<T, CustodyApiError>>;

/**
 * Each list counts its items and bytes against `budget`, the vault sync's (sync-budget.ts); a
 * list read on its own has a budget of its own.
 */
export interface CustodyClient {
  /** Every address-book entry of `vaults/{vaultId}`. */
  listAddressBookEntries(vaultId: string, budget?: SyncBudget): CustodyResult<ApiAddressBookEntry[]>;
  /** Every wallet of the vault, archived ones included (they are still the vault's own). */
  listWallets(vaultId: string, budget?: SyncBudget): CustodyResult<ApiWallet[]>;
  listWalletAddresses(vaultId: string, walletId: string, budget?: SyncBudget): CustodyResult<ApiWalletAddress[]>;
}

export interface CustodyClientOptions extends CustodyHttpOptions {
  /** Upper bound on pages per list; a sync's item budget (sync-budget.ts) stops it sooner. */
  maxPages?: number;
}

/** Items asked for a page; the API never sends more (it coerces larger sizes down to 1000). */
const PAGE_SIZE = 1000;
const DEFAULT_MAX_PAGES = 1000;

export function createCustodyClient(options: CustodyClientOptions): CustodyClient {
  const get = createCustodyGet(options);
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const v = (vaultId: string) => `/v2/vaults/${encodeURIComponent(vaultId)}`;
  const read = <P, T>(vaultId: string, path: string, params: Record<string, string>, list: ListSpec<P, T>, budget: SyncBudget | undefined) =>
    listAll(get, maxPages, vaultId, path, params, list, budget ?? createSyncBudget());
  return {
    listAddressBookEntries: (vaultId, budget) => read(vaultId, `${v(vaultId)}/addressBookEntries`, {}, ADDRESS_BOOK_ENTRIES, budget),
    listWallets: (vaultId, budget) => read(vaultId, `${v(vaultId)}/wallets`, { showArchived: "true" }, WALLETS, budget),
    listWalletAddresses: (vaultId, walletId, budget) => read(vaultId, `${v(vaultId)}/wallets/${encodeURIComponent(walletId)}/addresses`, {}, WALLET_ADDRESSES, budget),
  };
}

/** One list operation: its answer's schema and the field that holds its items. */
interface ListSpec<P, T> {
  operation: ListOperation;
  field: string;
  schema: z.ZodType<P>;
  items: (page: P) => T[] | null | undefined;
}

const ADDRESS_BOOK_ENTRIES: ListSpec<z.infer<typeof listAddressBookEntriesResponse>, ApiAddressBookEntry> = {
  operation: "ListAddressBookEntries",
  field: "addressBookEntries",
  schema: listAddressBookEntriesResponse,
  items: (p) => p.addressBookEntries,
};
const WALLETS: ListSpec<z.infer<typeof listWalletsResponse>, ApiWallet> = {
  operation: "ListWallets",
  field: "wallets",
  schema: listWalletsResponse,
  items: (p) => p.wallets,
};
const WALLET_ADDRESSES: ListSpec<z.infer<typeof listWalletAddressesResponse>, ApiWalletAddress> = {
  operation: "ListWalletAddresses",
  field: "walletAddresses",
  schema: listWalletAddressesResponse,
  items: (p) => p.walletAddresses,
};

/** The client for the configured API, with a service-account token source. */
export function custodyClientFromConfig(config: CustodyApiConfig, overrides: Omit<CustodyClientOptions, "baseUrl" | "tokens"> & { now?: () => Date } = {}): CustodyClient {
  const { now, ...rest } = overrides;
  const tokens = createServiceAccountTokenSource({
    baseUrl: config.baseUrl,
    serviceAccountEmail: config.serviceAccountEmail,
    privateKeyPem: config.privateKeyPem,
    ...(now === undefined ? {} : { now }),
  });
  return createCustodyClient({ ...rest, baseUrl: config.baseUrl, tokens });
}

async function listAll<P, T>(
  get: CustodyGet,
  maxPages: number,
  vaultId: string,
  path: string,
  params: Record<string, string>,
  list: ListSpec<P, T>,
  budget: SyncBudget,
): CustodyResult<T[]> {
  const { operation } = list;
  const vault = `vaults/${vaultId}`;
  const all: T[] = [];
  const seenTokens = new Set<string>();
  let pageToken: string | undefined;
  for (let page = 1; page <= maxPages; page++) {
    const query = new URLSearchParams({ ...params, pageSize: String(PAGE_SIZE) });
    if (pageToken !== undefined) query.set("pageToken", pageToken);
    const answer = await get({ operation, vault, path, query, budget });
    if (!answer.ok) return answer;
    const stranger = notThisList(operation, vault, page, answer.value);
    if (stranger !== null) return err(stranger);
    // Counted before the schema reads the items: a page of millions of tiny ones is refused
    // unread, not validated (and its issues collected) one by one.
    const overfull = pageOverfull(list, vault, page, answer.value);
    if (overfull !== null) return err(overfull);
    const parsed = list.schema.safeParse(answer.value);
    if (!parsed.success) return err(badShape(operation, vault, page, parsed.error));
    const items = list.items(parsed.data) ?? [];
    if (!budget.takeItems(items.length)) {
      return err(
        new CustodyApiError("TOO_LARGE", operation, vault, `page ${page} took the sync past ${budget.limits.maxItems} items in all (entries, wallets and wallet addresses)`),
      );
    }
    all.push(...items);
    const next = (parsed.data as { nextPageToken?: string | null }).nextPageToken;
    if (next === undefined || next === null || next === "") return ok(all);
    if (seenTokens.has(next)) return err(new CustodyApiError("PAGING", operation, vault, `page ${page} repeated an earlier page token`));
    seenTokens.add(next);
    pageToken = next;
  }
  return err(new CustodyApiError("PAGING", operation, vault, `still paging after ${maxPages} pages`));
}

/** Refuses a page holding more items than the pageSize asked for: the API never sends more. */
function pageOverfull<P, T>(list: ListSpec<P, T>, vault: string, page: number, body: unknown): CustodyApiError | null {
  const items = typeof body === "object" && body !== null ? (body as Record<string, unknown>)[list.field] : undefined;
  if (!Array.isArray(items) || items.length <= PAGE_SIZE) return null;
  return new CustodyApiError("TOO_LARGE", list.operation, vault, `page ${page} holds ${items.length} items, more than the ${PAGE_SIZE} asked for`);
}

/**
 * Refuses a body holding none of the list response's documented fields but other ones: every
 * field of the list response may be left out (an empty list is `{}`), so without this a
 * google.rpc.Status answered with 200 (`{"code": 8, "message": …, "details": []}`), or another
 * method's answer, would pass as an empty list and replace the copy with nothing.
 */
function notThisList(operation: ListOperation, vault: string, page: number, body: unknown): CustodyApiError | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null; // the schema refuses it
  const keys = Object.keys(body);
  const own: readonly string[] = LIST_RESPONSE_FIELDS[operation];
  if (keys.length === 0 || keys.some((key) => own.includes(key))) return null;
  // Key names only, never values; shortened, since the server chose them.
  const named = keys
    .slice(0, 3)
    .map((key) => JSON.stringify(key.slice(0, 40)))
    .join(", ");
  const detail = `page ${page} holds none of ${own.join(", ")} but ${named}${keys.length > 3 ? ", …" : ""}: not a ${operation} answer`;
  return new CustodyApiError("NOT_A_LIST", operation, vault, redact(detail));
}

/** Names the offending paths, never the values (which could be anything the server sent). */
function badShape(operation: CustodyOperation, vault: string, page: number, error: z.ZodError): CustodyApiError {
  const where = error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`)
    .join("; ");
  return new CustodyApiError("BAD_RESPONSE", operation, vault, redact(`page ${page} does not have the documented shape: ${where}`));
}
