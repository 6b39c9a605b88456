/** The migrations in `migrations/`, in the order `migrate` applies them, as it names them. */
import { readdirSync } from "node:fs";
import path from "node:path";

const DIR = path.resolve(import.meta.dirname, "../../migrations");

export function migrationNames(): string[] {
  return readdirSync(DIR)
    .filter((f) => /^[0-9]{8}T[0-9]{4}_[a-z0-9_]+\.ts$/.test(f))
    .sort()
    .map((f) => f.replace(/\.ts$/, ""));
}

/** What `migrate` prints when it applies every migration to an empty database. */
export const appliedEveryMigration = (): string => `applied: ${migrationNames().join(", ")}`;
