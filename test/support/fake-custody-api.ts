/**
 * A fake custody API (reference/custody-api-v2.md) over real HTTP on 127.0.0.1, serving
 * ListAddressBookEntries, ListWallets, ListWalletAddresses, GetAsset, BatchGetAssets, GetVaultAsset
 * and GetTransaction from in-memory data (an asset's price is its `convertedValue`, as the API has
 * it). It holds the transactions the tests deliver (the co-signer simulator hands each to it before
 * posting, as the real platform holds whatever its co-signer is asked to sign).
 *
 * It is strict where the real API is: the bearer JWT is verified (RS256 against the service
 * account's public key, `aud` = its own base URL + "/", `sub` = the account email, `exp` present,
 * not expired, at most one hour after `iat`), pages follow the documented rules (pageSize default
 * 50, max 1000, larger coerced; an opaque token bound to the other parameters, 400 when they
 * change), and errors are googlerpcStatus bodies. Tests can make it fail, stall or rate-limit.
 */
import { createHash, type KeyObject } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { jwtVerify } from "jose";

export interface FakeWallet {
  /** The wallet resource as the API returns it; `name` is `vaults/{v}/wallets/{w}`. */
  wallet: Record<string, unknown> & { name: string; archived?: boolean };
  addresses: Record<string, unknown>[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
  status: number | "stalled";
}

export interface FakeCustodyApiOptions {
  serviceAccountEmail: string;
  publicKey: KeyObject;
  /** The fake's clock for token expiry. */
  now?: () => Date;
}

export interface FakeCustodyApi {
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  setAddressBook(vaultId: string, entries: Record<string, unknown>[]): void;
  setWallets(vaultId: string, wallets: FakeWallet[]): void;
  /**
   * The platform's asset `assets/{id}` (GetAsset, BatchGetAssets), or a vault-scoped one
   * (GetVaultAsset) when `vaultId` is given; its USD price is `convertedValue: {amount, currencyCode}`.
   */
  setAsset(asset: Record<string, unknown> & { name: string }, vaultId?: string): void;
  /**
   * The platform holds `transaction` (a transaction object, or a body wrapping one in `transaction`)
   * under its name in `state` (what the platform's copy says when its co-signer is asked),
   * replacing what it held: GetTransaction answers it.
   */
  holdTransaction(transaction: unknown, state?: string): void;
  /** The GetTransaction requests answered so far (authenticated or not). */
  transactionReads(): RecordedRequest[];
  /** Every answer waits `ms` first (0: none), as an API farther away would. */
  delayAnswers(ms: number): void;
  /**
   * The next `count` requests answer `status` (default 500) before authentication; with `only`,
   * the next `count` requests whose path it matches (the others are answered as usual).
   */
  failNext(count: number, status?: number, only?: RegExp): void;
  rateLimitNext(count: number): void;
  /** The next `count` requests get no answer until close(). */
  stallNext(count?: number): void;
  /** Error bodies quote the Authorization header, as a careless proxy might. */
  echoAuthorizationInErrors(on: boolean): void;
  /**
   * Authenticated GETs of `path` (`/v2/vaults/v1/wallets`) answer 200 with `body`, whatever their
   * parameters, as a gateway routing them to another method might; undefined restores the answer.
   */
  answerWith(path: string, body: unknown): void;
  close(): Promise<void>;
}

interface VaultData {
  entries: Record<string, unknown>[];
  wallets: FakeWallet[];
  assets: Map<string, Record<string, unknown>>;
}

const RPC_CODE: Record<number, number> = { 400: 3, 401: 16, 403: 7, 404: 5, 429: 8, 500: 13, 503: 14 };

export async function startFakeCustodyApi(options: FakeCustodyApiOptions): Promise<FakeCustodyApi> {
  const vaults = new Map<string, VaultData>();
  const assets = new Map<string, Record<string, unknown>>();
  const requests: RecordedRequest[] = [];
  const faults = { failCount: 0, failStatus: 500, failOnly: null as RegExp | null, stallCount: 0, echo: false, delayMs: 0 };
  const transactions = new Map<string, Record<string, unknown>>();
  const answers = new Map<string, unknown>();
  const now = options.now ?? (() => new Date());
  let baseUrl = "";

  const vaultData = (id: string): VaultData => {
    const existing = vaults.get(id);
    if (existing) return existing;
    const created: VaultData = { entries: [], wallets: [], assets: new Map() };
    vaults.set(id, created);
    return created;
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, rpcError(500, "internal error of the fake")));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", baseUrl);
    const record: RecordedRequest = {
      method: req.method ?? "",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      authorization: req.headers.authorization,
      status: 0,
    };
    requests.push(record);
    if (faults.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, faults.delayMs));
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      send(res, status, body, headers);
    };
    if (faults.stallCount > 0) {
      faults.stallCount--;
      record.status = "stalled";
      return;
    }
    if (faults.failCount > 0 && (faults.failOnly === null || faults.failOnly.test(url.pathname))) {
      faults.failCount--;
      const headers: Record<string, string> = faults.failStatus === 429 ? { "retry-after": "1" } : {};
      return answer(faults.failStatus, rpcError(faults.failStatus, errorText("injected failure", req)), headers);
    }
    const authProblem = await verifyBearer(req.headers.authorization);
    if (authProblem !== null) return answer(401, rpcError(401, errorText(authProblem, req)));
    if (req.method !== "GET") return answer(404, rpcError(404, "not found"));
    if (answers.has(url.pathname)) return answer(200, answers.get(url.pathname));
    const [status, body] = route(url);
    answer(status, body);
  }

  function errorText(text: string, req: IncomingMessage): string {
    return faults.echo ? `${text}; request had authorization ${req.headers.authorization ?? "(none)"}` : text;
  }

  async function verifyBearer(header: string | undefined): Promise<string | null> {
    const match = /^Bearer (\S+)$/.exec(header ?? "");
    if (!match) return "missing bearer token";
    try {
      const { payload } = await jwtVerify(match[1]!, options.publicKey, {
        algorithms: ["RS256"],
        audience: `${baseUrl}/`,
        subject: options.serviceAccountEmail,
        requiredClaims: ["exp"],
        currentDate: now(),
      });
      const issuedAt = payload.iat ?? Math.floor(now().getTime() / 1000);
      if (payload.exp! - issuedAt > 3600) return "token lifetime exceeds one hour";
      return null;
    } catch (e) {
      return `invalid token: ${e instanceof Error ? e.message : "unverifiable"}`;
    }
  }

  function route(url: URL): [number, unknown] {
    const parts = url.pathname.split("/").map(decodeURIComponent);
    // BatchGetAssets: the assets among `names` the platform knows, in no promised order.
    if (parts[1] === "v2" && parts[2] === "assets:batchGet" && parts.length === 3) {
      const names = url.searchParams.getAll("names");
      if (names.length === 0) return [400, rpcError(400, "names is required")];
      return [200, { assets: names.flatMap((n) => assets.get(n) ?? []) }];
    }
    if (parts[1] === "v2" && parts[2] === "assets" && parts.length === 4) {
      const asset = assets.get(`assets/${parts[3]}`);
      return asset === undefined ? [404, rpcError(404, "asset not found")] : [200, { asset }];
    }
    // ["", "v2", "vaults", v, collection, (w, "addresses")]
    if (parts[1] !== "v2" || parts[2] !== "vaults" || parts[3] === undefined) return [404, rpcError(404, "not found")];
    const vault = vaults.get(parts[3]);
    if (vault === undefined) return [403, rpcError(403, `permission denied on vaults/${parts[3]}`)];
    if (parts.length === 6 && parts[4] === "transactions") {
      const transaction = transactions.get(`vaults/${parts[3]}/transactions/${parts[5]}`);
      return transaction === undefined ? [404, rpcError(404, "transaction not found")] : [200, { transaction }];
    }
    if (parts.length === 6 && parts[4] === "assets") {
      const asset = vault.assets.get(`assets/${parts[5]}`);
      return asset === undefined ? [404, rpcError(404, "asset not found")] : [200, { asset }];
    }
    if (parts.length === 5 && parts[4] === "addressBookEntries") {
      return pageOf(url, vault.entries, "addressBookEntries");
    }
    if (parts.length === 5 && parts[4] === "wallets") {
      const showArchived = url.searchParams.get("showArchived") === "true";
      const wallets = vault.wallets.filter((w) => showArchived || w.wallet.archived !== true).map((w) => w.wallet);
      return pageOf(url, wallets, "wallets");
    }
    if (parts.length === 7 && parts[4] === "wallets" && parts[6] === "addresses") {
      const wallet = vault.wallets.find((w) => w.wallet.name === `vaults/${parts[3]}/wallets/${parts[5]}`);
      if (wallet === undefined) return [404, rpcError(404, "wallet not found")];
      return pageOf(url, wallet.addresses, "walletAddresses");
    }
    return [404, rpcError(404, "not found")];
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    requests,
    setAddressBook: (vaultId, entries) => void (vaultData(vaultId).entries = entries),
    setWallets: (vaultId, wallets) => void (vaultData(vaultId).wallets = wallets),
    setAsset: (asset, vaultId) => void (vaultId === undefined ? assets : vaultData(vaultId).assets).set(asset.name, asset),
    holdTransaction: (body, state = "AWAITING_SIGNATURE") => {
      const transaction = heldTransaction(body);
      if (transaction === null) return;
      vaultData(String(transaction.name).split("/")[1]!);
      transactions.set(String(transaction.name), { ...structuredClone(transaction), state });
    },
    transactionReads: () => requests.filter((r) => /^\/v2\/vaults\/[^/]+\/transactions\/[^/]+$/.test(r.path)),
    delayAnswers: (ms) => void (faults.delayMs = ms),
    failNext: (count, status = 500, only) => Object.assign(faults, { failCount: count, failStatus: status, failOnly: only ?? null }),
    rateLimitNext: (count) => Object.assign(faults, { failCount: count, failStatus: 429, failOnly: null }),
    stallNext: (count = Number.POSITIVE_INFINITY) => void (faults.stallCount = count),
    echoAuthorizationInErrors: (on) => void (faults.echo = on),
    answerWith: (path, body) => void (body === undefined ? answers.delete(path) : answers.set(path, body)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The transaction object of a delivered body (either shape, or wrapped), when it names one. */
function heldTransaction(body: unknown): Record<string, unknown> | null {
  if (typeof body !== "object" || body === null) return null;
  const inner = (body as { transaction?: unknown }).transaction;
  const transaction = (typeof inner === "object" && inner !== null ? inner : body) as Record<string, unknown>;
  return typeof transaction.name === "string" && /^vaults\/[^/]+\/transactions\/[^/]+$/.test(transaction.name) ? transaction : null;
}

/** One page of `items`, following the documented paging rules. */
function pageOf(url: URL, items: unknown[], field: string): [number, unknown] {
  const size = pageSize(url.searchParams.get("pageSize"));
  if (size === null) return [400, rpcError(400, "pageSize must be a non-negative integer")];
  const binding = parameterBinding(url);
  let offset = 0;
  const token = url.searchParams.get("pageToken");
  if (token !== null && token !== "") {
    const decoded = decodePageToken(token);
    if (decoded === null) return [400, rpcError(400, "invalid page token")];
    if (decoded.binding !== binding) return [400, rpcError(400, "page token does not match the request parameters")];
    offset = decoded.offset;
  }
  const page = items.slice(offset, offset + size);
  const next = offset + size < items.length ? encodePageToken(offset + size, binding) : undefined;
  return [200, { [field]: page, totalSize: items.length, ...(next === undefined ? {} : { nextPageToken: next }) }];
}

function pageSize(raw: string | null): number | null {
  if (raw === null || raw === "") return 50;
  if (!/^[0-9]+$/.test(raw)) return null;
  const n = Number(raw);
  return n === 0 ? 50 : Math.min(n, 1000);
}

/** A digest of the path and every parameter except pageToken: a token is valid only for them. */
function parameterBinding(url: URL): string {
  const params = [...url.searchParams].filter(([k]) => k !== "pageToken").sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash("sha256")
    .update(JSON.stringify([url.pathname, params]))
    .digest("base64url")
    .slice(0, 16);
}

function encodePageToken(offset: number, binding: string): string {
  return Buffer.from(JSON.stringify({ o: offset, b: binding })).toString("base64url");
}

function decodePageToken(token: string): { offset: number; binding: string } | null {
  try {
    const value = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { o?: unknown; b?: unknown };
    if (typeof value.o !== "number" || typeof value.b !== "string") return null;
    return { offset: value.o, binding: value.b };
  } catch {
    return null;
  }
}

function rpcError(status: number, message: string): unknown {
  return { code: RPC_CODE[status] ?? 2, message, details: [] };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** The paths of the address-book sync's lists, and of GetAsset and GetVaultAsset: for `failNext(…, only)`. */
export const LIST_PATHS = /\/(addressBookEntries|wallets|addresses)$/;
export const ASSET_PATHS = /\/assets\/[^/]+$/;

/** API-shaped test data. */
export const fakeData = {
  entry: (vaultId: string, i: number, overrides: Record<string, unknown> = {}) => ({
    name: `vaults/${vaultId}/addressBookEntries/e${i}`,
    address: `0x${i.toString(16).padStart(40, "0")}`,
    displayName: `Entry ${i}`,
    network: "networks/ethereum-mainnet",
    createTime: "2026-11-01T00:00:00Z",
    signed: true,
    ...overrides,
  }),
  wallet: (vaultId: string, walletId: string, addresses: { id: string; address: string; network: string }[], extra: Record<string, unknown> = {}): FakeWallet => ({
    wallet: { name: `vaults/${vaultId}/wallets/${walletId}`, displayName: walletId, networks: [...new Set(addresses.map((a) => a.network))], ...extra },
    addresses: addresses.map((a) => ({
      name: `vaults/${vaultId}/wallets/${walletId}/addresses/${a.id}`,
      address: a.address,
      network: a.network,
      type: "DEPOSIT",
    })),
  }),
};
