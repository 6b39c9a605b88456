import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalCopy } from "../../../src/addressbook/copy.js";
import { createAddressBookSource } from "../../../src/addressbook/source.js";
import { readSyncStatus } from "../../../src/addressbook/sync-status.js";
import { readVaultView, recordSyncFailure, replaceVaultCopy } from "../../../src/addressbook/store.js";
import type { AddressBookEntry, OwnWalletAddress } from "../../../src/core/addressbook/types.js";
import { createAddressBookReader } from "../../../src/addressbook/view-cache.js";
import type { Db } from "../../../src/database.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";

const T0 = new Date("2026-11-21T12:00:00Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

const entries = (vault: string, count: number, tag = ""): AddressBookEntry[] =>
  Array.from({ length: count }, (_, i) => ({
    name: `${vault}/addressBookEntries/e${i}`,
    displayName: `Entry ${i}${tag}`,
    address: `0x${i.toString(16).padStart(40, "0")}`,
    network: "ethereum-mainnet",
    signed: i % 7 === 0 ? false : true,
  }));
const own = (vault: string, count: number): OwnWalletAddress[] =>
  Array.from({ length: count }, (_, i) => ({
    wallet: `${vault}/wallets/w${i}`,
    walletAddress: `${vault}/wallets/w${i}/addresses/a`,
    address: `0x${(i + 1_000_000).toString(16).padStart(40, "f")}`,
    network: "ethereum-mainnet",
  }));

describe("address-book store", () => {
  let tdb: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    tdb = await createTestDatabase();
    db = tdb.handle.db;
  });
  afterAll(() => tdb.drop());

  it("a vault never synced reads as configured, empty, syncedAt null; an unconfigured vault as not configured", async () => {
    expect(await readVaultView(db, "fresh", true)).toEqual({
      configured: true,
      vault: "vaults/fresh",
      syncedAt: null,
      entries: [],
      ownAddresses: [],
      externalWallets: [],
      wallets: [],
    });
    expect((await readVaultView(db, "vaults/fresh", false)).configured).toBe(false);
  });

  it("replaces and reads back a copy; a failure keeps it and is reported until the next good sync", async () => {
    const v = "vaults/s1";
    const first = await replaceVaultCopy(db, v, entries(v, 3), own(v, 2), at(0));
    expect(first).toEqual({ kind: "replaced", generation: 1 });
    const view = await readVaultView(db, "s1", true);
    expect(view.syncedAt).toEqual(at(0));
    expect(view.entries).toHaveLength(3);
    expect(view.entries[0]).toEqual(entries(v, 3)[0]);
    expect(view.ownAddresses).toEqual(own(v, 2));

    await recordSyncFailure(db, v, { code: "UNAUTHENTICATED", message: "ListAddressBookEntries for vaults/s1 failed" }, at(60));
    const after = await readVaultView(db, v, true);
    expect(after).toEqual(view);
    const [status] = await readSyncStatus(db, [v], at(90), 900);
    expect(status).toMatchObject({ vault: v, syncedAt: at(0), ageSeconds: 90, stale: false, lastAttemptAt: at(60), entryCount: 3, ownAddressCount: 2 });
    expect(status!.lastError).toEqual({ code: "UNAUTHENTICATED", message: "ListAddressBookEntries for vaults/s1 failed", at: at(60) });

    await replaceVaultCopy(db, v, entries(v, 4), own(v, 2), at(120));
    const [recovered] = await readSyncStatus(db, [v], at(120), 900);
    expect(recovered).toMatchObject({ lastError: null, entryCount: 4, syncedAt: at(120) });
  });

  it("an unchanged copy only moves the sync time; an older fetch never overwrites a newer copy", async () => {
    const v = "vaults/s2";
    await replaceVaultCopy(db, v, entries(v, 5), own(v, 1), at(0));
    // Same content in another order, with a duplicate (paging can repeat an item): unchanged.
    const shuffled = [...entries(v, 5)].reverse().concat(entries(v, 1));
    expect(await replaceVaultCopy(db, v, shuffled, own(v, 1), at(60))).toEqual({ kind: "unchanged", generation: 1 });
    expect((await readVaultView(db, v, true)).syncedAt).toEqual(at(60));
    expect(await replaceVaultCopy(db, v, entries(v, 2), own(v, 1), at(30))).toEqual({ kind: "superseded", generation: 1 });
    expect((await readVaultView(db, v, true)).entries).toHaveLength(5);
    // A late failure of an attempt older than the copy is not recorded over it.
    await recordSyncFailure(db, v, { code: "TIMEOUT", message: "late" }, at(45));
    expect((await readSyncStatus(db, [v], at(60), 900))[0]!.lastError).toBeNull();
  });

  it("old generations are deleted with the replacement", async () => {
    const v = "vaults/s3";
    await replaceVaultCopy(db, v, entries(v, 10), own(v, 3), at(0));
    await replaceVaultCopy(db, v, entries(v, 4, "b"), own(v, 1), at(10));
    const rows = await db.selectFrom("address_book_entries").select(["generation"]).where("vault", "=", v).execute();
    expect(new Set(rows.map((r) => r.generation))).toEqual(new Set(["2"]));
    expect(rows).toHaveLength(4);
  });

  it("external wallet names are stored with their generation, and a change to them alone is a new copy", async () => {
    const v = "vaults/ext";
    const tracked = [`${v}/wallets/tracked`, `${v}/wallets/exchange`];
    expect(await replaceVaultCopy(db, v, entries(v, 2), own(v, 1), at(0))).toEqual({ kind: "replaced", generation: 1 });
    expect((await readVaultView(db, v, true)).externalWallets).toEqual([]);
    // Only the external wallets changed (a wallet turned external): rewritten, not "unchanged".
    const withTracked = await replaceVaultCopy(db, v, entries(v, 2), own(v, 1), at(10), [...tracked, tracked[0]!]);
    expect(withTracked).toEqual({ kind: "replaced", generation: 2 });
    const view = await readVaultView(db, v, true);
    expect([...view.externalWallets!].sort()).toEqual([...tracked].sort());
    expect(await replaceVaultCopy(db, v, entries(v, 2), own(v, 1), at(20), [...tracked].reverse())).toEqual({ kind: "unchanged", generation: 2 });
    // A failed sync keeps them; a later copy without them replaces them, old generations gone.
    await recordSyncFailure(db, v, { code: "UNAVAILABLE", message: "down" }, at(30));
    expect((await readVaultView(db, v, true)).externalWallets).toHaveLength(2);
    expect(await replaceVaultCopy(db, v, entries(v, 2), own(v, 1), at(40), [tracked[1]!])).toEqual({ kind: "replaced", generation: 3 });
    expect((await readVaultView(db, v, true)).externalWallets).toEqual([tracked[1]]);
    const rows = await db.selectFrom("address_book_external_wallets").select(["generation", "wallet"]).where("vault", "=", v).execute();
    expect(rows).toEqual([{ generation: "3", wallet: tracked[1] }]);
    const cached = await createAddressBookReader(db, ["ext"]).read(v);
    expect(cached.externalWallets).toEqual([tracked[1]]);
    expect(Object.isFrozen(cached.externalWallets)).toBe(true);
  });

  it("a copy without external wallets keeps the digest it had before they were stored", async () => {
    // Copies written before the external-wallets table existed must not all be rewritten.
    const v = "vaults/digest";
    await replaceVaultCopy(db, v, entries(v, 3), own(v, 2), at(0));
    const { content_digest } = await db.selectFrom("address_book_sync").select("content_digest").where("vault", "=", v).executeTakeFirstOrThrow();
    expect(content_digest).toBe(canonicalCopy(entries(v, 3), own(v, 2)).digest);
  });

  it("a concurrent reader sees the old copy or the new one, never part of either", async () => {
    const v = "vaults/race";
    const copies = [
      { entries: entries(v, 2500), own: own(v, 10) },
      { entries: entries(v, 2600, "-new"), own: own(v, 11) },
    ];
    await replaceVaultCopy(db, v, copies[0]!.entries, copies[0]!.own, at(0));
    const seen: string[] = [];
    let replacing = true;
    const readers = Array.from({ length: 3 }, async () => {
      while (replacing) {
        const view = await readVaultView(db, v, true);
        const tags = new Set(view.entries.map((e) => e.displayName!.endsWith("-new")));
        seen.push(`${view.entries.length}/${view.ownAddresses.length}/${[...tags].join("")}`);
      }
    });
    for (let round = 1; round <= 6; round++) {
      const copy = copies[round % 2]!;
      await replaceVaultCopy(db, v, copy.entries, copy.own, at(round));
    }
    replacing = false;
    await Promise.all(readers);
    expect(seen.length).toBeGreaterThan(3);
    for (const s of seen) expect(["2500/10/false", "2600/11/true"]).toContain(s);
    expect(new Set(seen).size).toBe(2);
  });

  it("the cached reader sees a replacement made by another process on its next read", async () => {
    const v = "vaults/cache";
    await replaceVaultCopy(db, v, entries(v, 3), [], at(0));
    const processA = createAddressBookReader(db, ["cache"]);
    const first = await processA.read(v);
    const again = await processA.read("cache");
    expect(again.entries).toBe(first.entries); // served from the cache
    // "Another process" (a plain write) replaces the copy, then an unchanged sync moves the time.
    await replaceVaultCopy(db, v, entries(v, 8), [], at(60));
    expect((await processA.read(v)).entries).toHaveLength(8);
    await replaceVaultCopy(db, v, entries(v, 8), [], at(120));
    const moved = await processA.read(v);
    expect(moved.syncedAt).toEqual(at(120));
    expect(Object.isFrozen(moved.entries)).toBe(true);
    expect((await processA.read("vaults/elsewhere")).configured).toBe(false);
  });

  it("the decision path's source serves views and defers on a stale, never-synced or absent copy", async () => {
    const source = createAddressBookSource(db, { vaults: ["src", "never"], maxAgeSeconds: 900 });
    await replaceVaultCopy(db, "vaults/src", entries("vaults/src", 2), [], at(0));
    const view = await source.viewFor("vaults/src");
    expect(view.entries).toHaveLength(2);
    expect(source.staleReason(view, at(900))).toBeNull();
    expect(source.staleReason(view, at(901))).toMatch(/vaults\/src was last synced 901s ago/);
    expect(source.staleReason(await source.viewFor("vaults/never"), at(0))).toMatch(/not been synced/);
    // A vault outside COUNTERSIGN_VAULTS has no copy at all: its transactions defer too.
    expect(source.staleReason(await source.viewFor("vaults/other"), at(0))).toBe(
      "vaults/other is not among the vaults whose address books this service syncs (COUNTERSIGN_VAULTS)",
    );
  });
});
