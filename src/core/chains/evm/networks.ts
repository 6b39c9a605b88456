/**
 * The EVM family's networks (custody reference: the chains with EIP-7702 sponsorship), whose
 * accounts are 20 bytes written `0x` and 40 hex digits and whose native coins have 18 decimals.
 */
export const EVM_NETWORK = /^(ethereum|polygon|base|arbitrum|optimism|avalanche|bsc|linea|scroll)-/;

/** Wei per ether: every EVM network's native coin has 18 decimals. */
export const EVM_DECIMALS = 18;

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** `0x` and 40 hex digits: an EVM account, whose letter case is only an EIP-55 checksum. */
export const isEvmAddress = (address: string): boolean => EVM_ADDRESS.test(address);
