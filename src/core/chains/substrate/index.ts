/**
 * The relay chains' networks (and their test relays), whose accounts are SS58. Their clients
 * (polkadot-js) also take an account as its 32-byte public key in hex, but rules, the address book
 * and the windows compare SS58 (any prefix, ss58.ts) and a hex key as hex: a deny rule naming the
 * SS58 account would not see `0x…` and it would open a per-destination window group of its own.
 * Refused in a transfer, never converted. A chain object's sender may be the key: it is compared as
 * the account.
 */
import { accepted, refused, type ChainFamily } from "../family.js";
import { substrateGenesis } from "./genesis.js";
import { substrateAccount, substrateAccountOfKey } from "./ss58.js";

const PUBLIC_KEY = /^0x[0-9a-f]{64}$/i;

export const substrate: ChainFamily = {
  name: "substrate",
  networks: /^(polkadot|kusama|westend|rococo|paseo|substrate)-/,
  readAccount: (address) => (PUBLIC_KEY.test(address) ? refused("a Substrate account must be written in SS58, not as its public key in hex") : accepted(address)),
  senders: [
    {
      object: "substrateTransaction",
      field: "fromAddress",
      chain: "Substrate",
      account: (address) => substrateAccountOfKey(address) ?? (substrateAccount(address) === null ? null : address),
    },
  ],
  checkChainIds: substrateGenesis,
};
