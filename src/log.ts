/**
 * One JSON line per event on stdout. Never pass request bodies, tokens or key material here:
 * bodies hold addresses and amounts and belong in the audit row, not in logs.
 */
type Level = "debug" | "info" | "warn" | "error";

export interface Logger {
  debug(fields: object, msg: string): void;
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
  error(fields: object, msg: string): void;
}

const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export function createLogger(options: { level?: Level; write?: (line: string) => void } = {}): Logger {
  const min = ORDER[options.level ?? ((process.env.COUNTERSIGN_LOG_LEVEL as Level | undefined) ?? "info")] ?? ORDER.info;
  const write = options.write ?? ((line: string) => process.stdout.write(line + "\n"));
  const emit = (level: Level) => (fields: object, msg: string) => {
    if (ORDER[level] < min) return;
    write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }));
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
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
