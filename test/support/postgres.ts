/**
 * A fresh, migrated database per suite on the run's shared Postgres server.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../src/database.js";
import { migrateToLatest } from "../../src/db/migrate.js";

export interface TestDatabase {
  url: string;
  handle: DatabaseHandle;
  drop(): Promise<void>;
}

export function serverUrl(): string {
  return inject("postgresUrl");
}

export function databaseUrl(server: string, database: string): string {
  const url = new URL(server);
  url.pathname = `/${database}`;
  return url.toString();
}

async function admin<T>(server: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database; `migrate: false` leaves it unmigrated. */
export async function createTestDatabase(options: { migrate?: boolean; maxConnections?: number } = {}): Promise<TestDatabase> {
  const server = serverUrl();
  const name = `cs_test_${randomBytes(6).toString("hex")}`;
  await admin(server, (c) => c.query(`create database ${name}`));
  const url = databaseUrl(server, name);
  const handle = await openDatabase({ url, maxConnections: options.maxConnections ?? 10 });
  if (options.migrate !== false) await migrateToLatest(handle.db);
  return {
    url,
    handle,
    drop: async () => {
      await handle.close();
      await admin(server, (c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}
