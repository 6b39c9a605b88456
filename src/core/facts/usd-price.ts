/**
 * What a price of one whole unit in US dollars is (docs/interface.md section 10): a positive plain
 * decimal, read exactly (big.js) and written in canonical form, never a float. Shared by the
 * platform's answer, the operator's pins and a policy test case's `prices`.
 */
import Big from "big.js";

const Dec = Big();
Dec.strict = true;

const PLAIN_DECIMAL = /^[0-9]+(\.[0-9]+)?$/;

/** The canonical text of a positive plain decimal (`"1.50"` → `"1.5"`), or null for anything else (`0`, `-1`, `1e3`, a number). */
export function usdPrice(value: unknown): string | null {
  if (typeof value !== "string" || !PLAIN_DECIMAL.test(value)) return null;
  const price = new Dec(value);
  return price.gt("0") ? price.toFixed() : null;
}

/** Where a price came from: the custody platform's own figure, or an operator's or a test case's pin. */
export type PriceSource = "platform" | "pin";

/** One price a decision used, as recorded with it. */
export interface PriceQuote {
  asset: string;
  /** USD for one whole unit, a canonical positive decimal. */
  usd: string;
  /** When the platform answered (RFC 3339), or when the pin was read. */
  fetchedAt: string;
  source: PriceSource;
}
