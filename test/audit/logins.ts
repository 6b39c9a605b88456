/**
 * Login roles in the two group roles, for suites that act as the writer or the auditor on the
 * run's Postgres server (roles belong to the cluster: each suite makes its own and drops them).
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "../../src/db/connect.js";
import { serverUrl } from "../support/postgres.js";

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
