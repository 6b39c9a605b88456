/** Network ids as the platform writes them (`ethereum-mainnet`, `networks/ethereum-mainnet`). */

/** Network id without the `networks/` prefix. */
export const networkId = (network: string): string => (network.startsWith("networks/") ? network.slice("networks/".length) : network);

/** A network id as the API writes them: a chain and a net, `ethereum-mainnet`, `bitcoin-testnet`. */
const CHAIN_NETWORK = /^[a-z0-9]+(-[a-z0-9]+)+$/i;

/** Whether `network` (an id, without `networks/`) is written as the API writes network ids: `chain-net`. */
export const isChainNetwork = (network: string): boolean => CHAIN_NETWORK.test(network);

/** Words that make a network id a test network's: the net words, and Polkadot's test relays. */
const TEST_WORDS = ["testnet", "devnet", "localnet", "westend", "rococo", "paseo"];

export const isTestNetwork = (network: string): boolean => TEST_WORDS.some((word) => network.includes(word));

/** The native coin's asset name on `network`. */
export const nativeAsset = (network: string): string => `assets/native.${networkId(network)}`;
