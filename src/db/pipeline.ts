/**
 * Statements sent back to back, in one round trip, on one connection held for a piece of work
 * (the decision's transaction, src/decision/session.ts).
 *
 * On a Postgres server the pool's clients run in node-postgres's pipeline mode (connect.ts): the
 * statements of one `send` go out without waiting for each other's answers, and the server runs
 * them in order, each with its own sync point. A named statement is parsed and planned once per
 * connection, then only bound and executed. On PGlite, in process, a batch goes as one
 * simple-protocol text: each PGlite call is a trip through its WASM protocol loop, which costs more
 * than these statements do.
 */
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import type { CheckoutGuard } from "./checkout-guard.js";
import type { AnyDb } from "./any-db.js";

export interface Statement {
  /** Prepared once per connection under this name (the text must never change for a name). */
  name?: string;
  text: string;
  values?: readonly unknown[];
}

export interface Pipeline {
  /** Sends `statements` in one round trip; the last one's rows. The first failure rejects, after every answer is in. */
  send(statements: readonly Statement[]): Promise<Record<string, unknown>[]>;
}

/** Holds one connection for `work`, then hands it back; a guard's expiry destroys it (checkout-guard.ts). */
export type PipelineOpener = <T>(work: (pipeline: Pipeline) => Promise<T>, guard?: CheckoutGuard) => Promise<T>;

const openers = new WeakMap<AnyDb, { opener: PipelineOpener; connections: number }>();

/** Called by connect.ts for each database it opens, with how many connections its pool holds. */
export function registerPipelines(db: AnyDb, opener: PipelineOpener, connections: number): void {
  openers.set(db, { opener, connections });
}

/** How many pipelines `db` can have open at once. */
export function pipelineConnections(db: AnyDb): number {
  return registered(db).connections;
}

function registered(db: AnyDb): { opener: PipelineOpener; connections: number } {
  const found = openers.get(db);
  if (!found) throw new Error("this database was not opened by openDatabase: it has no pipeline");
  return found;
}

export function withPipeline<T>(db: AnyDb, work: (pipeline: Pipeline) => Promise<T>, guard?: CheckoutGuard): Promise<T> {
  return registered(db).opener(work, guard);
}

/** A pipeline over a pg client created with `pipeline: true`. */
export function pgPipeline(client: pg.Client): Pipeline {
  return {
    async send(statements) {
      // pg writes each query as it is issued; corked, the batch leaves in one write (one syscall,
      // one wake-up of the server process) instead of one per statement.
      const socket = client.connection.stream;
      socket.cork();
      let answers: Promise<pg.QueryResult<Record<string, unknown>>>[];
      try {
        answers = statements.map((s) => client.query<Record<string, unknown>>(pgQuery(s)));
      } finally {
        socket.uncork();
      }
      // Every answer is awaited before anything is reported, so that the connection is quiet when
      // the caller rolls back: a statement behind a failed one fails too (aborted transaction).
      const settled = await Promise.allSettled(answers);
      const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
      if (failed) throw failed.reason;
      return (settled.at(-1) as PromiseFulfilledResult<pg.QueryResult<Record<string, unknown>>>).value.rows;
    },
  };
}

/**
 * A statement as pg takes it. pg copies a config object through its property descriptors on every
 * query (about a hundredth of the service's CPU per decision); a bare text, as `begin` and
 * `commit` are sent, is taken as it is.
 */
function pgQuery(s: Statement): string | pg.QueryConfig {
  if (s.name === undefined && s.values === undefined) return s.text;
  return { ...(s.name === undefined ? {} : { name: s.name }), text: s.text, values: [...(s.values ?? [])] };
}

/**
 * A pipeline over PGlite, used while the caller holds its one connection (the dialect's mutex):
 * one statement goes as it is; several go as one text through `exec`, their parameters written in
 * as string literals (escaped as pg's escapeLiteral does). Statement texts are this codebase's own
 * constants, whose `$n` never stand inside a literal.
 */
export function pglitePipeline(pglite: PGlite): Pipeline {
  return {
    async send(statements) {
      if (statements.length === 1) {
        const s = statements[0]!;
        return (await pglite.query<Record<string, unknown>>(s.text, [...(s.values ?? [])], { rowMode: "object" })).rows;
      }
      const text = statements.map((s) => s.text.replace(/\$([0-9]+)/g, (_m, n: string) => literalOf(s.values?.[Number(n) - 1]))).join(";\n");
      const results = await pglite.exec(text, { rowMode: "object" });
      return results.at(-1)?.rows ?? [];
    },
  };
}

function literalOf(value: unknown): string {
  if (typeof value !== "string" && typeof value !== "number") throw new TypeError("a batched PGlite statement takes only string or number parameters");
  const text = String(value);
  const quoted = text.replace(/'/g, "''");
  return text.includes("\\") ? ` E'${quoted.replace(/\\/g, "\\\\")}'` : `'${quoted}'`;
}
