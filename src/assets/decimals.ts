/**
 * Where a token's decimals come from, for the unit check of the decision path
 * (src/decision/unit-check.ts): the custody API when configured, the operator's pins
 * (COUNTERSIGN_ASSET_DECIMALS) otherwise or when the API cannot answer. Both known and different:
 * unknown — countersign never picks one of two contradicting statements about money.
 *
 * An asset's decimals never change, so the API's answer is kept for the life of the process
 * (bounded); a failure is kept only briefly, so an outage costs one call per asset per few seconds
 * instead of one per delivery, and recovery is quick. Concurrent questions share one call.
 */
import type { FetchDecimals } from "./custody-assets.js";
import { pinnedDecimals, type DecimalsPins } from "./decimals-pins.js";

export type DecimalsAnswer = { known: true; decimals: number } | { known: false; reason: string };

export interface AssetDecimals {
  decimalsOf(asset: string, vault: string): Promise<DecimalsAnswer>;
}

export interface AssetDecimalsOptions {
  pins: DecimalsPins;
  /** The custody API lookup, when COUNTERSIGN_API_URL is configured. */
  fetch?: FetchDecimals;
  /** performance.now()-like milliseconds; tests pass their own. */
  nowMs?: () => number;
  maxCached?: number;
  failureTtlMs?: number;
}

type ApiAnswer = { ok: true; decimals: number } | { ok: false; reason: string; at: number };

const DEFAULT_MAX_CACHED = 10_000;
const DEFAULT_FAILURE_TTL_MS = 5_000;

export function createAssetDecimals(options: AssetDecimalsOptions): AssetDecimals {
  const nowMs = options.nowMs ?? (() => performance.now());
  const maxCached = options.maxCached ?? DEFAULT_MAX_CACHED;
  const failureTtlMs = options.failureTtlMs ?? DEFAULT_FAILURE_TTL_MS;
  const answers = new Map<string, ApiAnswer>();
  const inFlight = new Map<string, Promise<ApiAnswer>>();

  const remember = (key: string, answer: ApiAnswer): ApiAnswer => {
    if (answers.size >= maxCached) answers.delete(answers.keys().next().value!);
    answers.set(key, answer);
    return answer;
  };

  const fromApi = (fetch: FetchDecimals, asset: string, vault: string): Promise<ApiAnswer> => {
    // Vault-scoped assets are answered per vault: the key carries both.
    const key = `${vault} ${asset}`;
    const cached = answers.get(key);
    if (cached !== undefined && (cached.ok || nowMs() - cached.at < failureTtlMs)) return Promise.resolve(cached);
    const pending = inFlight.get(key);
    if (pending !== undefined) return pending;
    const call = fetch(asset, vault).then(
      (r): ApiAnswer => remember(key, r.ok ? { ok: true, decimals: r.value } : { ok: false, reason: `${r.error.code.toLowerCase().replace(/_/g, " ")}`, at: nowMs() }),
      (): ApiAnswer => remember(key, { ok: false, reason: "error", at: nowMs() }),
    );
    inFlight.set(key, call);
    void call.finally(() => inFlight.delete(key));
    return call;
  };

  return {
    async decimalsOf(asset, vault) {
      const pinned = pinnedDecimals(options.pins, asset);
      if (options.fetch === undefined) {
        return pinned !== undefined
          ? { known: true, decimals: pinned }
          : { known: false, reason: `the decimals of ${asset} are unknown (no custody API and no COUNTERSIGN_ASSET_DECIMALS pin)` };
      }
      const api = await fromApi(options.fetch, asset, vault);
      if (!api.ok) {
        return pinned !== undefined ? { known: true, decimals: pinned } : { known: false, reason: `the decimals of ${asset} are unknown (custody API: ${api.reason})` };
      }
      if (pinned !== undefined && pinned !== api.decimals) {
        return { known: false, reason: `the decimals of ${asset} are in doubt (custody API says ${api.decimals}, COUNTERSIGN_ASSET_DECIMALS says ${pinned})` };
      }
      return { known: true, decimals: api.decimals };
    },
  };
}
