/**
 * Opens the database: a Postgres server when a URL is given, else the embedded PGlite under the
 * data directory. Both speak the same SQL and run the same migrations.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { guardCheckout } from "./checkout-guard.js";
import { describeLockError, lockDataDir } from "./data-dir-lock.js";
import { checkEmbeddedStore, describeStoreError, markEmbeddedStore } from "./embedded-store.js";
import { PGliteDialect } from "./pglite-dialect.js";
import { pglitePipeline, pgPipeline, registerPipelines } from "./pipeline.js";

export interface Connection<DB> {
  db: Kysely<DB>;
  kind: "postgres" | "pglite";
  close: () => Promise<void>;
}

export interface OpenDatabaseOptions {
  url?: string | undefined;
  dataDir?: string | undefined;
  /** Pool size for a Postgres server (default 10). */
  maxConnections?: number;
  /**
   * No statement timeout, on the server or in the driver: for migrations, whose statements (a
   * backfill over the audit table) may take longer than any of the service's may.
   */
  unboundedStatements?: boolean;
}

// A database that is down refuses connections at once (the webhook then defers). pg-pool applies
// this timeout to the wait for a free pooled client too, which a burst on one hot window group
// makes long: a decision bounds every wait by its own deadline (COUNTERSIGN_DECISION_TIMEOUT), so
// this only bounds callers without one (readiness, the address-book sync).
const CONNECT_TIMEOUT_MS = 10_000;
const STATEMENT_TIMEOUT_MS = 10_000;

// Every table and function is named without its schema, so the session's path decides where they
// are: the default ("$user", public) puts a schema named after the login first, and whoever may
// create one (the database's owner) could take the service's reads and writes there. The startup
// parameter sets it before the first statement, at no round trip; pg_temp last so that a temporary
// table cannot stand in for one of ours either.
//
// synchronous_commit=on for the same reason a 200 waits for COMMIT: the answer signs. A database or
// role set to `off` (a common tuning) made COMMIT return before its WAL was on disk, and a crash
// then lost answered decisions with their charges: a signed transaction with no row in the trail,
// and its room in the windows free again. A startup option outranks those settings, at no cost
// where commits were durable already.
const SESSION_OPTIONS = "-c search_path=public,pg_temp -c synchronous_commit=on";

// Keep int8 as strings too (pg's default), numeric as strings (exact amounts).
export async function openConnection<DB>(options: OpenDatabaseOptions): Promise<Connection<DB>> {
  if (options.url) return openPostgres<DB>(options.url, options.maxConnections ?? 10, options.unboundedStatements === true);
  return openPGlite<DB>(options.dataDir ?? "./.countersign");
}

function openPostgres<DB>(url: string, max: number, unbounded: boolean): Connection<DB> {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    ...(unbounded ? { statement_timeout: 0 } : { statement_timeout: STATEMENT_TIMEOUT_MS, query_timeout: STATEMENT_TIMEOUT_MS + 1_000 }),
    application_name: "countersign",
    options: SESSION_OPTIONS,
    // Statements issued without awaiting go out together (pipeline.ts: the decision's first round
    // trip); awaited one at a time, as kysely does, nothing changes.
    pipeline: true,
  });
  // An idle client losing its server emits 'error' on the pool; without a listener that would
  // crash the process. The next checkout simply fails and the request defers.
  pool.on("error", () => undefined);
  // A client that is checked out but between queries (inside a transaction, while the decision
  // evaluates) has no listener of pg-pool's: a server shutting down (57P01) or a dropped socket
  // would emit an unhandled 'error' and kill the process. The client is then not queryable: its
  // next query fails (the decision defers) and the pool discards it on release.
  pool.on("connect", (client) => client.on("error", () => undefined));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  // The decision's checkout passes its deadline's guard (checkout-guard.ts), which destroys the
  // client if the deadline strikes while the decision holds it.
  registerPipelines(
    db,
    async (work, guard) => {
      const client = guardCheckout(await pool.connect(), guard);
      try {
        // pg.Pool hands out pg.Client instances; PoolClient's type leaves out their connection.
        return await work(pgPipeline(client));
      } finally {
        client.release();
      }
    },
    max,
  );
  return { db, kind: "postgres", close: () => db.destroy() };
}

/** Another process (a running `serve`) holds the embedded database: a reader may ask that process instead. */
export class EmbeddedDatabaseInUse extends Error {
  override readonly name = "EmbeddedDatabaseInUse";
}

/** Where the embedded database keeps its files under COUNTERSIGN_DATA_DIR. */
export const embeddedDataPath = (dataDir: string): string => `${dataDir}/pgdata`;

async function openPGlite<DB>(dataDir: string): Promise<Connection<DB>> {
  const { PGlite } = await import("@electric-sql/pglite");
  const inMemory = dataDir === ":memory:";
  if (inMemory) return openPGliteAt<DB>(PGlite, undefined, () => undefined);
  mkdirSync(dataDir, { recursive: true });
  // Before PGlite touches a file: a second process on these files corrupts them (data-dir-lock.ts).
  const lock = lockDataDir(dataDir);
  if (!lock.ok) throw lock.error.code === "DATA_DIR_LOCKED" ? new EmbeddedDatabaseInUse(describeLockError(lock.error)) : new Error(describeLockError(lock.error));
  try {
    const store = checkEmbeddedStore(dataDir, embeddedDataPath(dataDir));
    if (!store.ok) throw new Error(describeStoreError(store.error));
    const handle = await openPGliteAt<DB>(PGlite, embeddedDataPath(dataDir), lock.value.release).catch((error: unknown) => {
      throw new Error(describeUnopenable(dataDir, error));
    });
    try {
      markEmbeddedStore(dataDir);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return handle;
  } catch (error) {
    lock.value.release();
    throw error;
  }
}

/**
 * PGlite's own words for a store it cannot open are "PGlite failed to initialize properly" or
 * "Aborted()", naming neither the directory nor the cause (it keeps Postgres's FATAL to itself).
 */
function describeUnopenable(dataDir: string, error: unknown): string {
  let found = "no PG_VERSION";
  try {
    found = `PG_VERSION ${readFileSync(`${embeddedDataPath(dataDir)}/PG_VERSION`, "utf8").trim()}`;
  } catch {
    // left as "no PG_VERSION"
  }
  const said = error instanceof Error ? error.message : String(error);
  return `the embedded database under ${dataDir} could not be opened (${found}): damaged, or written by a PGlite of another Postgres major; restore it, or remove ${dataDir} to start afresh on purpose (PGlite said: ${said})`;
}

async function openPGliteAt<DB>(PGlite: typeof import("@electric-sql/pglite").PGlite, dataPath: string | undefined, release: () => void): Promise<Connection<DB>> {
  const pglite = new PGlite(dataPath);
  await pglite.waitReady;
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  // Holding kysely's connection is holding the dialect's mutex: PGlite is then this work's alone.
  registerPipelines(db, (work) => db.connection().execute(() => work(pglitePipeline(pglite))), 1);
  const close = async () => {
    try {
      await db.destroy();
    } finally {
      release();
    }
  };
  return { db, kind: "pglite", close };
}
