import { describe, expect, it } from "vitest";
import { substrateAccount, substrateAccountOfKey } from "./ss58.js";

const ALICE_KEY = "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d";
const ALICE = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY";
const BOB_KEY = "0x8eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a48";
const BOB = "5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty";

/**
 * Published SS58 vectors (Substrate's well-known development accounts, polkadot-js's subkey table):
 * the network prefix, the address, and the 32-byte public key it carries.
 */
const VECTORS: [number, string, string][] = [
  [42, ALICE, ALICE_KEY],
  [0, "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5", ALICE_KEY],
  [2, "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F", ALICE_KEY],
  [42, BOB, BOB_KEY],
  [0, "14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3", BOB_KEY],
  [42, "5DA4D4GL5iakrn22h5uKoevgvo18Pqj5BcdEUv8etEDPdijA", "0x3050f8456519829fe03302da802d22d3233a5f4037b9a3e2bcc403ccfcb2d735"],
  [65, "cLtA6nCDyvwKcEHH4QkZDSHMhS9s78BvUJUsKUbUAn1Jc2SCF", "0x08e8969768fc14399930d4b8d693f68a2ff6c6a597325d6946095e5e9d9d1b0e"],
  [69, "cnVRwXfAnz3RSVQyBUC8f8McrK3YBX2QYd4WoctpeSC6VTJYm", "0xae640d53cfa815f4a6a50ae70235cd7d9d134d0f1c3a4ccd118e321dfb6ab51f"],
  [255, "yGF4JP7q5AK46d1FPCEm9sYQ4KooSjHMpyVAjLnsCSWVafPnf", "0x66cd6cf085627d6c85af1aaf2bd10cf843033e929b4e3b1c2ba8e4aa46fe111b"],
  [4242, "mHm8k9Emsvyfp3piCauSH684iA6NakctF8dySQcX94GDdrJrE", "0x44d5a3ac156335ea99d33a83c57c7146c40c8e2260a8a4adf4e7a86256454651"],
  [14269, "r6Gr4gaMP8TsjhFbqvZhv3YvnasugLiRJpzpRHifsqqG18UXa", "0x88f01441682a17b52d6ae12d1a5670cf675fd254897efabaa5069eb3a701ab73"],
];

describe("substrateAccount", () => {
  it.each(VECTORS)("prefix %i: %s is the account of its public key", (_prefix, address, key) => {
    expect(substrateAccount(address)).toBe(substrateAccountOfKey(key));
  });

  it("the generic spelling of Alice's and Bob's keys is the published one", () => {
    expect(substrateAccountOfKey(ALICE_KEY)).toBe(ALICE);
    expect(substrateAccountOfKey(BOB_KEY.toUpperCase().replace("0X", "0x"))).toBe(BOB);
  });

  const refused: [string, string][] = [
    ["a changed checksum", `${ALICE.slice(0, -1)}R`],
    ["a 33-byte (ECDSA) key, prefix 200", "4pbsSkWcBaYoFHrKJZp5fDVUKbqSYD9dhZZGvpp3vQ5ysVs5ybV"],
    ["a one-byte account index", "F7NZ"],
    ["a letter outside base58", `${ALICE.slice(0, -1)}0`],
    ["a public key in hex", ALICE_KEY],
  ];
  it.each(refused)("refuses %s", (_why, text) => expect(substrateAccount(text)).toBeNull());
});
