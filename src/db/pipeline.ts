/**
 * Statements sent back to back, in one round trip, on one connection held for a piece of work
 * (the decision's transaction, src/decision/session.ts).
 *
 * On a Postgres server the pool's clients run in node-postgres's pipeline mode (connect.ts): the
 * statements of one `send` go out without waiting for each other's answers, and the server runs
 * them in order, each with its own sync point. A named statement is parsed and planned once per
 * connection, then only bound and executed. On PGlite, in process, where a round trip costs a
 * function call, they simply run one after another on its one connection.
 */
import { CompiledQuery } from "kysely";
import type pg from "pg";
import type { Db } from "./connect.js";

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

/** Holds one connection for `work`, then hands it back. */
export type PipelineOpener = <T>(work: (pipeline: Pipeline) => Promise<T>) => Promise<T>;

const openers = new WeakMap<Db, PipelineOpener>();

/** Called by connect.ts for a database whose connections can pipeline. */
export function registerPipelines(db: Db, opener: PipelineOpener): void {
  openers.set(db, opener);
}

export function withPipeline<T>(db: Db, work: (pipeline: Pipeline) => Promise<T>): Promise<T> {
  const opener = openers.get(db);
  if (opener) return opener(work);
  return db.connection().execute((conn) =>
    work({
      async send(statements) {
        let rows: Record<string, unknown>[] = [];
        for (const s of statements) {
          rows = (await conn.executeQuery<Record<string, unknown>>(CompiledQuery.raw(s.text, [...(s.values ?? [])]))).rows;
        }
        return rows;
      },
    }),
  );
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
        answers = statements.map((s) => client.query<Record<string, unknown>>({ ...(s.name === undefined ? {} : { name: s.name }), text: s.text, values: [...(s.values ?? [])] }));
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
