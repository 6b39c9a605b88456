/**
 * Comparing chain addresses (CONTRACT.md section 4, "Normalisation"): EVM addresses (0x + 40 hex)
 * are case-insensitive (the mixed case is only an EIP-55 checksum); every other chain's addresses
 * are compared exactly, because base58 (Solana, Tron) and strkey (Stellar) are case-sensitive.
 */

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export const isEvmAddress = (address: string): boolean => EVM_ADDRESS.test(address);

export const normaliseAddress = (address: string): string =>
  isEvmAddress(address) ? address.toLowerCase() : address;

export const sameAddress = (a: string, b: string): boolean => normaliseAddress(a) === normaliseAddress(b);

/** `ethereum-mainnet` whether or not it was written `networks/ethereum-mainnet`. */
export const bareNetwork = (network: string): string =>
  network.startsWith("networks/") ? network.slice("networks/".length) : network;
