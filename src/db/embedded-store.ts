/**
 * Whether the embedded database under COUNTERSIGN_DATA_DIR may be opened as it is found.
 *
 * PGlite creates a fresh database wherever it finds no PG_VERSION. A first start must; but a data
 * directory whose database was there before and is gone (its pgdata emptied by a clean-up script
 * or a failed restore, its PG_VERSION deleted) was filled with a fresh one just the same: every
 * velocity window empty, so a wallet could send its limit again, and the audit trail restarted,
 * while the service answered 200 as if nothing happened. A marker beside pgdata, written once a
 * database has opened there, tells the two apart; a pgdata holding files but no PG_VERSION is
 * refused too (a database damaged, or one whose creation was cut short: remove it to start afresh).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { err, ok, type Result } from "../core/errors.js";

/** Written beside pgdata once a database opened there; its content is when. */
export const STORE_MARKER = "embedded-database";

export type EmbeddedStoreError = { code: "EMBEDDED_DATABASE_GONE"; dataDir: string; createdAt: string } | { code: "EMBEDDED_DATABASE_DAMAGED"; dataDir: string };

export function checkEmbeddedStore(dataDir: string, dataPath: string): Result<void, EmbeddedStoreError> {
  if (existsSync(path.join(dataPath, "PG_VERSION"))) return ok(undefined);
  const marker = path.join(dataDir, STORE_MARKER);
  if (existsSync(marker)) return err({ code: "EMBEDDED_DATABASE_GONE", dataDir, createdAt: readFileSync(marker, "utf8").trim() });
  if (existsSync(dataPath) && readdirSync(dataPath).length > 0) return err({ code: "EMBEDDED_DATABASE_DAMAGED", dataDir });
  return ok(undefined);
}

/** Called once the database opened: from now on its absence is refused. */
export function markEmbeddedStore(dataDir: string): void {
  const marker = path.join(dataDir, STORE_MARKER);
  if (!existsSync(marker)) writeFileSync(marker, `${new Date().toISOString()}\n`, { mode: 0o600 });
}

export function describeStoreError(error: EmbeddedStoreError): string {
  switch (error.code) {
    case "EMBEDDED_DATABASE_GONE":
      return `the embedded database under ${error.dataDir} (first opened ${error.createdAt}) is missing: its pgdata has no PG_VERSION. Starting afresh would empty every velocity window and restart the audit trail; restore pgdata, or remove ${error.dataDir} to start afresh on purpose`;
    case "EMBEDDED_DATABASE_DAMAGED":
      return `the embedded database under ${error.dataDir} holds files but no PG_VERSION (damaged, or its creation was cut short); restore it, or remove ${error.dataDir} to start afresh on purpose`;
  }
}
