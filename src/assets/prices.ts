/**
 * USD prices for the decision path (docs/interface.md section 10), looked up before any lock: the
 * custody platform's own figure when it gives one, the operator's pin (COUNTERSIGN_ASSET_PRICES)
 * for an asset it does not price, else unknown. Where both exist the platform's is used and the
 * pin ignored, with a warning: a pin is a stand-in, never a second opinion.
 *
 * A platform answer is kept at most maxAgeMs (COUNTERSIGN_PRICE_MAX_AGE): prices move, and a
 * figure older than that is not the one the platform's console shows. The assets one lookup misses
 * are asked in one call (BatchGetAssets); an asset already being asked by another lookup waits for
 * that call instead of making its own. A failed call is kept only briefly (an outage costs one
 * call per few seconds, not one per delivery) and is never answered with a pin: the platform may
 * price the asset, and a decision made on another figure would be a guess.
 */
import { canonicalAssetName } from "../core/chains/assets.js";
import type { FetchPrices } from "./custody-assets.js";
import { pinnedPrice, type PricePins } from "./price-pins.js";
import type { PriceQuote } from "../core/facts/usd-price.js";
/** A known price; or none, `unavailable` when the platform could not be asked (the decision defers). */
export type PriceAnswer = { known: true; quote: PriceQuote } | { known: false; unavailable: boolean; reason: string };

export interface AssetPrices {
  /** One answer per asset asked, by the asset as asked. */
  pricesOf(assets: readonly string[], vault: string): Promise<Map<string, PriceAnswer>>;
}

export interface AssetPricesOptions {
  pins: PricePins;
  /** The custody API lookup, when COUNTERSIGN_API_URL is configured. */
  fetch?: FetchPrices;
  /** COUNTERSIGN_PRICE_MAX_AGE. */
  maxAgeMs: number;
  /** The wall clock a quote's fetchedAt is read from. */
  clock?: () => Date;
  /** performance.now()-like milliseconds, for ages; tests pass their own. */
  nowMs?: () => number;
  /** Told once per asset whose pin the platform's price overrides. */
  warn?: (asset: string, platform: string, pin: string) => void;
}

/** What the platform said of one asset at one time. */
type Answered = { ok: true; price: string | null; at: number; fetchedAt: string } | { ok: false; reason: string; at: number };

const FAILURE_TTL_MS = 5_000;
const MAX_CACHED = 10_000;

export function createAssetPrices(options: AssetPricesOptions): AssetPrices {
  const fetch = options.fetch;
  if (fetch === undefined) return { pricesOf: async (assets) => new Map(assets.map((a) => [a, pinOnly(options, a, "no custody API")])) };
  const platform = platformPrices(fetch, options);
  const warned = new Set<string>();
  return {
    async pricesOf(assets, vault) {
      const answered = await platform(assets, vault);
      return new Map(assets.map((asset) => [asset, resolve(options, asset, answered.get(asset)!, warned)]));
    },
  };
}

function resolve(options: AssetPricesOptions, asset: string, answer: Answered, warned: Set<string>): PriceAnswer {
  if (!answer.ok) return { known: false, unavailable: true, reason: `custody API: ${answer.reason}` };
  if (answer.price === null) return pinOnly(options, asset, "the custody platform does not price it");
  const pin = pinnedPrice(options.pins, asset);
  if (pin !== undefined && !warned.has(canonicalAssetName(asset))) {
    warned.add(canonicalAssetName(asset));
    options.warn?.(asset, answer.price, pin);
  }
  return { known: true, quote: { asset, usd: answer.price, fetchedAt: answer.fetchedAt, source: "platform" } };
}

function pinOnly(options: AssetPricesOptions, asset: string, why: string): PriceAnswer {
  const pin = pinnedPrice(options.pins, asset);
  if (pin === undefined) return { known: false, unavailable: false, reason: `${why} and COUNTERSIGN_ASSET_PRICES pins no price` };
  return { known: true, quote: { asset, usd: pin, fetchedAt: (options.clock ?? (() => new Date()))().toISOString(), source: "pin" } };
}

/** The platform's answers, kept and shared as the header says. */
function platformPrices(fetch: FetchPrices, options: AssetPricesOptions) {
  const nowMs = options.nowMs ?? (() => performance.now());
  const clock = options.clock ?? (() => new Date());
  const kept = new Map<string, Answered>();
  const inFlight = new Map<string, Promise<Answered>>();
  const fresh = (a: Answered | undefined): a is Answered => a !== undefined && nowMs() - a.at < (a.ok ? options.maxAgeMs : Math.min(FAILURE_TTL_MS, options.maxAgeMs));
  const keep = (key: string, a: Answered): Answered => {
    if (kept.size >= MAX_CACHED) kept.delete(kept.keys().next().value!);
    kept.set(key, a);
    return a;
  };

  /** One call for `assets`, each asset's share of it registered in flight until it settles. */
  const ask = (assets: readonly string[], vault: string, keyOf: (a: string) => string): void => {
    const call = fetch(assets, vault).catch(() => null);
    for (const asset of assets) {
      const key = keyOf(asset);
      const share = call.then((r): Answered => {
        if (r === null) return keep(key, { ok: false, reason: "error", at: nowMs() });
        if (!r.ok) return keep(key, { ok: false, reason: r.error.code.toLowerCase().replace(/_/g, " "), at: nowMs() });
        return keep(key, { ok: true, price: r.value.get(asset) ?? null, at: nowMs(), fetchedAt: clock().toISOString() });
      });
      inFlight.set(key, share);
      void share.finally(() => inFlight.delete(key));
    }
  };

  return async (assets: readonly string[], vault: string): Promise<Map<string, Answered>> => {
    // Vault-scoped assets are priced per vault: the key carries both.
    const keyOf = (asset: string) => `${vault} ${canonicalAssetName(asset)}`;
    const distinct = [...new Map(assets.map((a) => [keyOf(a), a])).values()];
    const missing = distinct.filter((a) => !fresh(kept.get(keyOf(a))) && !inFlight.has(keyOf(a)));
    if (missing.length > 0) ask(missing, vault, keyOf);
    // Each asset's answer is taken now, before any await: by then a kept answer may have aged out.
    const taken = assets.map((asset): [string, Answered | Promise<Answered>] => {
      const key = keyOf(asset);
      const cached = kept.get(key);
      return [asset, fresh(cached) && !inFlight.has(key) ? cached : inFlight.get(key)!];
    });
    return new Map(await Promise.all(taken.map(async ([asset, answer]) => [asset, await answer] as const)));
  };
}
