/**
 * The platform's resource-name grammar (custody reference, "Resource-name convention"). Every name
 * a body gives — transaction, wallet, wallet address, asset, network, user — is checked against it:
 * an empty or malformed name (`assets/`, `vaults//wallets/x`) is refused with 400, never read as
 * something milder such as a raw address or an opaque asset.
 */

/** Ids inside resource names. */
const ID = "[A-Za-z0-9_-]{1,128}";
/** Asset ids: dot-separated parts (`erc20.ethereum-mainnet.0x…`, `asset.stellar-mainnet.USDC-G…`). */
const ASSET_ID = "[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,3}";

export const TRANSACTION_NAME = new RegExp(`^vaults/(${ID})/transactions/(${ID})$`);
export const WALLET_NAME = new RegExp(`^vaults/${ID}/wallets/${ID}$`);
export const WALLET_ADDRESS_NAME = new RegExp(`^(vaults/${ID}/wallets/${ID})/addresses/${ID}$`);
/** The API's own examples write a wallet of the transaction's vault as `wallets/{w}`. */
export const SHORT_WALLET_NAME = new RegExp(`^(wallets/${ID})(/addresses/${ID})?$`);
export const ASSET_NAME = new RegExp(`^assets/${ASSET_ID}$`);
export const NETWORK_NAME = new RegExp(`^networks/(${ID})$`);
/** `users/{email}` or `users/{id}`. */
export const USER_NAME = /^users\/[A-Za-z0-9._%+@-]{1,320}$/;

/**
 * A raw chain address: no whitespace, no `/` (anything with a `/` is a resource name and must
 * parse as one), bounded. Chains differ too much for a tighter rule (hex, base58, bech32, strkey).
 */
const RAW_ADDRESS = /^[A-Za-z0-9:._+=-]{1,256}$/;

/** The collections whose names are resource names, never raw addresses. */
const RESOURCE_PREFIX = /^(vaults|wallets|assets|networks|users)\//;

export const isAssetName = (value: string): boolean => ASSET_NAME.test(value);

export const isNetworkName = (value: string): boolean => NETWORK_NAME.test(value);
export const isUserName = (value: string): boolean => USER_NAME.test(value);
export const isRawAddress = (value: string): boolean => RAW_ADDRESS.test(value) && !RESOURCE_PREFIX.test(value);
