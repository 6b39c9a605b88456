/**
 * Readiness of the database's schema: every migration this build ships is applied. With
 * migrations off (`COUNTERSIGN_MIGRATE=false`, the chart's hook mode) a pod started against a
 * database its migrations never reached answered every decision 503 while `/readyz` said ready,
 * so a rolling update skipping the migration replaced working pods with ones that cannot decide.
 */
import type { ReadinessCheck } from "../readiness.js";
import type { AnyDb } from "./any-db.js";
import { createMigrator } from "./migrate.js";

export function schemaReadiness(db: AnyDb): ReadinessCheck {
  let current = false;
  return {
    name: "schema",
    check: async () => {
      // Applied migrations stay applied: once current, the question is only whether the database answers.
      if (current) return null;
      const migrations = await createMigrator(db)
        .getMigrations()
        .catch(() => null);
      if (migrations === null) return null; // the database check says why it cannot be read
      const pending = migrations.filter((m) => m.executedAt === undefined);
      current = pending.length === 0;
      return current ? null : `${pending.length} migration(s) of this build not applied (first: ${pending[0]!.name}); run countersign migrate`;
    },
  };
}
