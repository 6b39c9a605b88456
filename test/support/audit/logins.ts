/**
 * Login roles in the two group roles, for suites that act as the writer or the auditor on the
 * run's Postgres server (roles belong to the cluster: each suite makes its own and drops them).
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../../src/database.js";
import { createTestDatabase, serverUrl, type TestDatabase } from "../postgres.js";

export function urlAs(url: string, user: string): string {
  const u = new URL(url);
  u.username = user;
  u.password = "";
  return u.toString();
}

export async function asSuperuser<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export interface Login {
  name: string;
  open(databaseUrl: string): Promise<DatabaseHandle>;
  drop(): Promise<void>;
}

/** A login role that is a member of `group` (countersign_writer or countersign_auditor). */
export async function createLogin(group: string): Promise<Login> {
  const name = `cs_${group.replace("countersign_", "")}_${randomBytes(4).toString("hex")}`;
  await asSuperuser((c) => c.query(`create role ${name} login in role ${group}`));
  return {
    name,
    open: (databaseUrl) => openDatabase({ url: urlAs(databaseUrl, name), maxConnections: 2 }),
    drop: () => asSuperuser((c) => c.query(`drop role if exists ${name}`)).then(() => undefined),
  };
}

export interface WriterDatabase {
  /** The fresh migrated database, opened by the owner. */
  tdb: TestDatabase;
  /** The same database as a login of countersign_writer (what the service runs as). */
  writer: DatabaseHandle;
  login: Login;
}

/** A fresh database and a writer login on it, for the block's tests; set once they start. */
export function writerDatabase(): WriterDatabase {
  const suite = {} as WriterDatabase;
  beforeAll(async () => {
    suite.tdb = await createTestDatabase();
    suite.login = await createLogin("countersign_writer");
    suite.writer = await suite.login.open(suite.tdb.url);
  });
  afterAll(async () => {
    await suite.writer?.close();
    await suite.tdb?.drop();
    await suite.login?.drop();
  });
  return suite;
}
