import { sql, type Kysely } from "kysely";

/**
 * Which policy bundle is the newest one in force, so that a process still deciding by an older one
 * stands down (src/policy/adoption.ts, README "Pods decide by different bundles"). A merged pull
 * request reaches the pods one by one, and one whose git-sync keeps failing never; the co-signer's
 * polls land on any pod, and defers are not final, so a pod on the replaced bundle signed what the
 * new one defers or denies.
 *
 * - `policy_adoptions`: per bundle digest, when a process last took it up as a change, by the
 *   database's clock. A change is a bundle a running process reloaded (a merge, or a revert to an
 *   older digest), or one a process starts with that no process had before. A process that
 *   restarts on a bundle already known (a pod whose git-sync is stuck) adopts nothing.
 * - `policy_holders`: which bundle each `serve` process decides by, refreshed every few seconds,
 *   and whether it can decide at all (listening, its clock in step: one that cannot makes no one
 *   stand down); a row not refreshed for a while is a process that is gone.
 *
 * The writer role gets the default privileges (read and write): whoever holds its credentials can
 * make the pods in step stand down, never make a pod decide by a bundle it has not loaded.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table policy_adoptions (
      digest text primary key check (digest ~ '^[0-9a-f]{64}$'),
      version text not null check (length(version) between 1 and 200),
      adopted_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table policy_holders (
      holder text primary key check (length(holder) between 1 and 200),
      digest text not null check (digest ~ '^[0-9a-f]{64}$'),
      deciding boolean not null default true,
      seen_at timestamptz not null default now()
    )`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists policy_holders`.execute(db);
  await sql`drop table if exists policy_adoptions`.execute(db);
}
