/**
 * The service's writer role can replace a vault's copy: every copy table, including the custodied
 * wallets (migrations/baseline/grants.sql).
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replaceVaultCopy, readVaultView } from "../../../src/addressbook/store.js";
import { openDatabase, type DatabaseHandle } from "../../../src/database.js";
import { createTestDatabase, serverUrl, type TestDatabase } from "../../support/postgres.js";

const WRITER_LOGIN = `cs_ab_writer_${randomBytes(4).toString("hex")}`;

async function asSuperuser(sqlText: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    await client.query(sqlText);
  } finally {
    await client.end();
  }
}

describe("address-book copy as the writer role", () => {
  let tdb: TestDatabase;
  let writer: DatabaseHandle;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    await asSuperuser(`create role ${WRITER_LOGIN} login in role countersign_writer`);
    const url = new URL(tdb.url);
    url.username = WRITER_LOGIN;
    writer = await openDatabase({ url: url.toString(), maxConnections: 1 });
  });
  afterAll(async () => {
    await writer?.close();
    await tdb?.drop();
    await asSuperuser(`drop role if exists ${WRITER_LOGIN}`);
  });

  it("writes and reads custodied and external wallet names", async () => {
    const v = "vaults/roles1";
    await replaceVaultCopy(writer.db, v, [], [], new Date(), [`${v}/wallets/tracked`], [`${v}/wallets/hot`]);
    const view = await readVaultView(writer.db, v, true);
    expect(view.wallets).toEqual([`${v}/wallets/hot`]);
    expect(view.externalWallets).toEqual([`${v}/wallets/tracked`]);
  });
});
