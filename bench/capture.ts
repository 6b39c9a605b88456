/**
 * Capturing the SQL one decision issues: a recording wrapper around pg's `Client.prototype.query`
 * (text, parameters exactly as pg sends them, and the protocol: simple or extended) while the
 * service's own `decide()` runs in this process. The SQL ceiling replays what was captured, so it
 * follows any change to the decision's statements without anyone retyping them.
 */
import { createRequire } from "node:module";
import pg from "pg";

export interface CapturedStatement {
  text: string;
  /** Parameters as pg sends them (its prepareValue): text, null, or bytes. */
  values: Array<string | Buffer | null>;
  /** Sent with the extended protocol (parameters or a statement name), else as a simple query. */
  extended: boolean;
}

const prepareValue = createRequire(import.meta.url)("pg/lib/utils.js").prepareValue as (v: unknown) => string | Buffer | null;

interface QueryConfigLike {
  text?: string;
  values?: unknown[];
  name?: string;
  queryMode?: string;
}

export interface StatementRecorder {
  /** The statements every pg.Client sent while `run` was in progress. */
  capture(run: () => Promise<void>): Promise<CapturedStatement[]>;
  /** Puts pg's own `query` back. */
  uninstall(): void;
}

/**
 * Wraps `pg.Client.prototype.query`. Install it before any client exists: a client may keep its
 * own bound copy of `query` (connect.ts wraps each pooled client once), which then goes through
 * the wrapper only if the wrapper was there first.
 */
export function installStatementRecorder(): StatementRecorder {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  let sink: CapturedStatement[] | null = null;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const statement = sink ? normalise(args[0], args[1]) : null;
    if (statement) sink!.push(statement);
    return original.apply(this, args);
  };
  return {
    async capture(run) {
      const captured: CapturedStatement[] = [];
      sink = captured;
      try {
        await run();
      } finally {
        sink = null;
      }
      if (captured.length === 0) throw new Error("no statement went through pg.Client.prototype.query: the capture saw nothing");
      return captured;
    },
    uninstall() {
      proto.query = original;
    },
  };
}

function normalise(config: unknown, values: unknown): CapturedStatement | null {
  const c: QueryConfigLike = typeof config === "string" ? { text: config } : ((config ?? {}) as QueryConfigLike);
  if (typeof c.text !== "string") return null;
  const raw = (Array.isArray(values) ? values : c.values) ?? [];
  const extended = raw.length > 0 || c.name !== undefined || c.queryMode === "extended";
  return { text: c.text, values: raw.map((v) => prepareValue(v)), extended };
}
