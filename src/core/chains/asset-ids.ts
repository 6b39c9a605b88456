/**
 * The parts of an asset id, `assets/{standard}.{network}[.{contract}]` (custody API "Resource
 * names"), which every family's asset reading starts from (src/core/chains/assets.ts and each
 * family's own).
 */

const NETWORK_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function assetIdParts(asset: string): string[] | null {
  if (!asset.startsWith("assets/")) return null;
  return asset.slice("assets/".length).split(".");
}

/**
 * `ethereum-mainnet` from `assets/erc20.ethereum-mainnet.0x…`; null for opaque ids (`assets/e72ff35a5b15`).
 * In lower case, as the asset's identity reads it: `assets/native.Ethereum-Mainnet` is ETH on
 * `ethereum-mainnet`, for the address book and for a rule or window on the network too (found by a
 * review of aliasing: the network as spelt opened a window group of its own).
 */
export function networkFromAsset(asset: string): string | null {
  const network = assetIdParts(asset)?.[1];
  return network !== undefined && NETWORK_ID.test(network) ? network.toLowerCase() : null;
}
