/** Assembling one Transfer, whichever body shape it came from. */
import { assetStandardOf, networkFromAsset, networkId } from "../chains/assets.js";
import type { AssetStandard, Endpoint, Transfer } from "./types.js";

export interface TransferFields {
  asset: string;
  /** When the body itself says (a Stellar operation); otherwise read from the asset id. */
  assetStandard?: AssetStandard;
  amount: string | null;
  rawAmount: string | null;
  source: Endpoint;
  destination: Endpoint;
  sponsor: string | null;
  /** The network the transaction names (`networks/…`), used when the asset id names none. */
  fallbackNetwork: string | null;
  /** A Stellar operation's transfer (see `Transfer.stellarOperation`). */
  stellarOperation?: true;
}

export function makeTransfer(index: number, fields: TransferFields): Transfer {
  const { fallbackNetwork, assetStandard, ...rest } = fields;
  // The asset id is the more specific statement: `assets/erc20.polygon-mainnet.…` moves on Polygon.
  const network = networkFromAsset(fields.asset) ?? (fallbackNetwork === null ? null : networkId(fallbackNetwork).toLowerCase());
  return { index, network, assetStandard: assetStandard ?? assetStandardOf(fields.asset, network), ...rest };
}

/** Joins a JSON path prefix and a key: `("", "details")` → `details`. */
export const at = (prefix: string, key: string | number): string => (typeof key === "number" ? `${prefix}[${key}]` : prefix === "" ? key : `${prefix}.${key}`);

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Own keys whose value is present (protobuf JSON may write an unset field as null). */
export const presentKeys = (record: Record<string, unknown>): string[] => Object.keys(record).filter((key) => record[key] !== null && record[key] !== undefined);
