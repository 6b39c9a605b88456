import { sql, type Kysely } from "kysely";

/**
 * Evidence for policy changes, on each decision row (all nullable: rows written before have none).
 * - `trace`: every rule per evaluation as matched / not matched / error, with the values each
 *   comparison's operands had (what `countersign explain --decision ID` prints).
 * - `velocity_windows`: the window definitions the facts' `velocity` totals were computed with, so
 *   `policy replay` knows which recorded totals a candidate bundle can reuse as they were.
 * - `shadow_*`: the candidate bundle of COUNTERSIGN_SHADOW_POLICIES evaluated on the same facts;
 *   recorded, never answered. `shadow_error` says why a shadow evaluation produced no decision.
 * Plain ADD COLUMN: works on a plain or a partitioned `decisions` table alike.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table decisions
      add column trace jsonb,
      add column velocity_windows jsonb,
      add column shadow_policy_version text,
      add column shadow_policy_digest text,
      add column shadow_decision text check (shadow_decision in ('allow', 'deny', 'defer')),
      add column shadow_matched_rules jsonb,
      add column shadow_error text`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    alter table decisions
      drop column trace, drop column velocity_windows, drop column shadow_policy_version,
      drop column shadow_policy_digest, drop column shadow_decision, drop column shadow_matched_rules,
      drop column shadow_error`.execute(db);
}
