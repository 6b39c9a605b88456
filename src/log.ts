/**
 * One JSON line per event on stdout, through pino. A line written for a request carries its
 * request id (the handler passes it), and every line the trace and span ids of the active span
 * (when OpenTelemetry is on), so a line leads to its trace and a trace to its lines.
 *
 * Never pass request bodies, tokens or key material here: bodies hold addresses and amounts and
 * belong in the audit row, not in logs. As a second line of defence the fields named in
 * SECRET_FIELDS are replaced by "[redacted]" whatever is passed (log-redaction.ts).
 *
 * Lines go to file descriptor 1 through pino's asynchronous destination (sonic-boom, no worker
 * thread): a line is handed to the kernel without the event loop waiting for the write, and lines
 * written while one write is in flight go out together in the next. A reader that stops draining
 * stdout (a stalled container runtime) therefore never holds up a decision; pino flushes what is
 * pending when the process exits. A SIGKILL can lose the last lines: the decision itself is in
 * its audit row, which is committed before any answer.
 */
import { pino, type DestinationStream, type LevelWithSilent } from "pino";
import { isoTime } from "./core/iso-time.js";
import { redactSecrets } from "./log-redaction.js";
import { activeTraceIds } from "./telemetry/tracing.js";

type Level = "debug" | "info" | "warn" | "error";

export interface Logger {
  debug(fields: object, msg: string): void;
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
  error(fields: object, msg: string): void;
}

const LEVELS: readonly LevelWithSilent[] = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];

/** COUNTERSIGN_LOG_LEVEL, else LOG_LEVEL, else info; an unknown name is info too. */
export function logLevelFrom(env: NodeJS.ProcessEnv): LevelWithSilent {
  const named = (env.COUNTERSIGN_LOG_LEVEL || env.LOG_LEVEL || "info").trim().toLowerCase();
  return LEVELS.find((l) => l === named) ?? "info";
}

export function createLogger(options: { level?: Level; write?: (line: string) => void } = {}): Logger {
  const write = options.write;
  const destination: DestinationStream = write ? { write: (line: string) => write(line.replace(/\n$/, "")) } : pino.destination({ dest: 1, sync: false });
  const log = pino(
    {
      level: options.level ?? logLevelFrom(process.env),
      // pino's stdTimeFunctions.isoTime, with the faster formatter (src/core/iso-time.ts).
      timestamp: () => `,"time":"${isoTime(Date.now())}"`,
      formatters: { level: (label) => ({ level: label }) },
      // Fields passed by the caller win over these.
      mixin: () => activeTraceIds(),
    },
    destination,
  );
  return {
    debug: (fields, msg) => log.debug(redactSecrets(fields), msg),
    info: (fields, msg) => log.info(redactSecrets(fields), msg),
    warn: (fields, msg) => log.warn(redactSecrets(fields), msg),
    error: (fields, msg) => log.error(redactSecrets(fields), msg),
  };
}

/** Reduces an unknown thrown value to something safe to log (no request data is in our errors). */
export function describeError(error: unknown): { error: string; code?: string } {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { error: `${error.name}: ${error.message}`, ...(typeof code === "string" ? { code } : {}) };
  }
  return { error: String(error) };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
