/**
 * The vault the generated bodies belong to and what countersign's synced copy knows about it: its
 * own wallets and their addresses, one external wallet, address-book entries (one not yet through
 * the quorum). The generators draw endpoints and assets from here so that many bodies are plausible
 * transfers, and the oracle reads the same world to say what is internal or trusted.
 */
import type { AddressBookView } from "../../../src/core/addressbook/types.js";

export const VAULT_ID = "5c3f1a2b9d7e";
export const VAULT = `vaults/${VAULT_ID}`;
export const OTHER_VAULT = "vaults/0ther0vault01";

export const HOT = `${VAULT}/wallets/7a8b9c0d1e2f`;
export const COLD = `${VAULT}/wallets/cold0001`;
export const EXTERNAL_WALLET = `${VAULT}/wallets/ext0001`;
/** Named like a wallet of the vault, but the synced copy does not know it. */
export const UNKNOWN_WALLET = `${VAULT}/wallets/unknown0001`;

export const HOT_EVM = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
export const COLD_EVM = "0x00000000000000000000000000000000000C01D0";
export const EXTERNAL_EVM = "0x0000000000000000000000000000000000e47e47";
export const BOOK_EVM = "0x52908400098527886E0F7030069857D2E4169EE7";
export const UNSIGNED_BOOK_EVM = "0x1111111111111111111111111111111111111111";
export const OUTSIDER_EVM = "0x000000000000000000000000000000000000dEaD";

const g = (tag: string) => `G${tag.padEnd(55, "X")}`;
export const HOT_STELLAR = g("SENDERA");
export const SPONSOR_STELLAR = g("SPONSOR");
export const BOOK_STELLAR = g("DESTA");
export const OUTSIDER_STELLAR = g("OUTSIDER");
export const STELLAR_ISSUER = "GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN";
export const STELLAR_USDC = `USDC-${STELLAR_ISSUER}`;
export const STELLAR_CONTRACT = `C${"CONTRACT".padEnd(55, "X")}`;

export const USDC_ETH = "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
export const USDC_CONTRACT = "0xA0b86991c6218b36c1d19d4a2e9eB0cE3606eB48";
export const ETH = "assets/native.ethereum-mainnet";
export const OTHER_TOKEN = "assets/erc20.ethereum-mainnet.0x6b175474e89094c44da98b954eedeac495271d0f";
export const USDC_POLYGON = "assets/erc20.polygon-mainnet.0x3c499c542cef5e3811e1192ce70d8cc03d5c3359";
export const BTC = "assets/native.bitcoin-mainnet";
export const STELLAR_USDC_ASSET = `assets/asset.stellar-mainnet.${STELLAR_USDC}`;
export const STELLAR_SEP41_ASSET = `assets/asset.stellar-mainnet.${STELLAR_CONTRACT}`;

/** Decimals countersign can know from the asset id alone: native coins. A token's are not in the body. */
export const KNOWN_DECIMALS: Record<string, number> = {
  [ETH]: 18,
  [BTC]: 8,
};

export function addressBookView(): AddressBookView {
  const now = new Date("2026-11-22T08:00:00Z");
  return {
    configured: true,
    vault: VAULT,
    syncedAt: now,
    entries: [
      { name: `${VAULT}/addressBookEntries/exchange`, displayName: "Exchange", address: BOOK_EVM, network: "ethereum-mainnet", signed: true },
      { name: `${VAULT}/addressBookEntries/pending`, displayName: "Pending", address: UNSIGNED_BOOK_EVM, network: "ethereum-mainnet", signed: false },
      { name: `${VAULT}/addressBookEntries/stellar`, displayName: "Anchor", address: BOOK_STELLAR, network: "stellar-mainnet", signed: true },
    ],
    ownAddresses: [
      { wallet: HOT, walletAddress: `${HOT}/addresses/eth0`, address: HOT_EVM, network: "ethereum-mainnet" },
      { wallet: HOT, walletAddress: `${HOT}/addresses/pol0`, address: HOT_EVM, network: "polygon-mainnet" },
      { wallet: HOT, walletAddress: `${HOT}/addresses/xlm0`, address: HOT_STELLAR, network: "stellar-mainnet" },
      { wallet: HOT, walletAddress: `${HOT}/addresses/xlm1`, address: SPONSOR_STELLAR, network: "stellar-mainnet" },
      { wallet: COLD, walletAddress: `${COLD}/addresses/eth0`, address: COLD_EVM, network: "ethereum-mainnet" },
      { wallet: EXTERNAL_WALLET, walletAddress: null, address: EXTERNAL_EVM, network: "ethereum-mainnet" },
    ],
    externalWallets: [EXTERNAL_WALLET],
    // The custodied wallets the copy lists; UNKNOWN_WALLET is not among them.
    wallets: [HOT, COLD],
  };
}

/** The current decision time of the in-process runs (the copy above is fresh at it). */
export const NOW = new Date("2026-11-22T08:00:30Z");
