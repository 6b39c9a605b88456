/**
 * Capturing the SQL one decision issues: a recording wrapper around pg's `Client.prototype.query`
 * (text, parameters exactly as pg sends them, the protocol — simple or extended — and the round
 * trip it went in) while the service's own `decide()` runs in this process. The SQL ceiling
 * replays what was captured, so it follows any change to the decision's statements without anyone
 * retyping them. test/integration/decision/round-trips.test.ts counts the service's round trips with it.
 */
import { createRequire } from "node:module";
import pg from "pg";

export interface CapturedStatement {
  text: string;
  /** Parameters as pg sends them (its prepareValue): text, null, or bytes. */
  values: Array<string | Buffer | null>;
  /** Sent with the extended protocol (parameters or a statement name), else as a simple query. */
  extended: boolean;
  /**
   * The round trip it went in, counted from 0: a statement joins the one in progress when its
   * client pipelines (src/db/pipeline.ts) and an earlier statement of that client is unanswered.
   */
  roundTrip: number;
}

const { prepareValue } = createRequire(import.meta.url)("pg/lib/utils.js") as { prepareValue: (v: unknown) => string | Buffer | null };

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
  const unanswered = new WeakMap<object, number>();
  proto.query = function (this: pg.Client, ...args: unknown[]) {
    const waiting = unanswered.get(this) ?? 0;
    const statement = sink ? normalise(args[0], args[1]) : null;
    if (statement) {
      const last = sink!.at(-1);
      const joins = last !== undefined && waiting > 0 && this.pipeline;
      sink!.push({ ...statement, roundTrip: last === undefined ? 0 : joins ? last.roundTrip : last.roundTrip + 1 });
    }
    const answer = original.apply(this, args);
    if (!(answer instanceof Promise)) return answer;
    unanswered.set(this, waiting + 1);
    const answered = () => unanswered.set(this, (unanswered.get(this) ?? 1) - 1);
    answer.then(answered, answered);
    return answer;
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

function normalise(config: unknown, values: unknown): Omit<CapturedStatement, "roundTrip"> | null {
  const c: QueryConfigLike = typeof config === "string" ? { text: config } : (config ?? {});
  if (typeof c.text !== "string") return null;
  const raw = (Array.isArray(values) ? values : c.values) ?? [];
  const extended = raw.length > 0 || c.name !== undefined || c.queryMode === "extended";
  return { text: c.text, values: raw.map((v) => prepareValue(v)), extended };
}
