/**
 * The example bundle (`policies/`) and the environment it runs in without a custody API: the
 * example prices `npm start` passes from examples/quickstart/quickstart.env, read
 * from that file only. The example's dollar window must price every transfer it charges, so every
 * test service, spawned process, in-process decision and benchmark on the example takes its
 * environment from here.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual, parseEnv } from "node:util";
import { assetDecimalsFromConfig, assetPricesFromConfig } from "../../src/assets/from-config.js";
import type { AssetDecimals } from "../../src/assets/decimals.js";
import type { AssetPrices } from "../../src/assets/prices.js";
import { loadConfig } from "../../src/config.js";
import { NO_PRICES, type PriceBook } from "../../src/core/facts/dollars.js";
import type { PolicyBundle } from "../../src/core/policy/types.js";
import { parsePricePins } from "../../src/assets/price-pins.js";
import { silentLogger } from "../../src/log.js";
import { loadBundleSync } from "../../src/policy/load.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
export const EXAMPLE_POLICIES = path.join(ROOT, "policies");
export const EXAMPLES = path.join(EXAMPLE_POLICIES, "tests/transactions");
export const QUICKSTART_ENV = path.join(ROOT, "examples/quickstart/quickstart.env");

/** The variables `npm start` adds (node --env-file), as the service reads them. */
export const EXAMPLE_ENV: Readonly<Record<string, string>> = Object.freeze(parseEnv(readFileSync(QUICKSTART_ENV, "utf8")) as Record<string, string>);

const loaded = loadBundleSync(EXAMPLE_POLICIES);
if (!loaded.ok) throw loaded.error;
const example = loaded.value;
/** The example policy's `version`, which answers and decision rows name. */
export const EXAMPLE_VERSION = example.version;

/**
 * Whether a bundle runs the example's windows: the example itself, or a copy a suite has renamed
 * or given other rules. Decided by content, since copies live in scratch directories; a bundle
 * with windows of its own states its own prices.
 */
export function runsExampleWindows(bundle: Pick<PolicyBundle, "windows">): boolean {
  return isDeepStrictEqual(bundle.windows, example.windows);
}

/** The example environment for a service or command on the bundle at `dir`; nothing for other bundles. */
export function exampleEnvFor(dir: string): Record<string, string> {
  const bundle = loadBundleSync(dir);
  return bundle.ok && runsExampleWindows(bundle.value) ? { ...EXAMPLE_ENV } : {};
}

/** The example's prices for an in-process evaluation of `bundle`, as the service would hold them; none for other bundles. */
export function examplePricesFor(bundle: Pick<PolicyBundle, "windows">): PriceBook {
  return runsExampleWindows(bundle) ? parsePricePins(EXAMPLE_ENV.COUNTERSIGN_ASSET_PRICES).pins : NO_PRICES;
}

/** The example's prices and decimals as the decision path takes them in-process (no custody API). */
export function exampleAssets(): { assetPrices: AssetPrices; assetDecimals: AssetDecimals } {
  const config = loadConfig({ ...EXAMPLE_ENV });
  return { assetPrices: assetPricesFromConfig(config, silentLogger), assetDecimals: assetDecimalsFromConfig(config) };
}
