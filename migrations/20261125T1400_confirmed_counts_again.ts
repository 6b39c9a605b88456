import { sql, type Kysely } from "kysely";

/**
 * A transaction the platform reports CONFIRMED counts in the windows again if its charges were
 * voided before (src/velocity/void.ts, `countChargesAgain`; the events endpoint's
 * `count-charges-again` effect). An operator voids a DROPPED transaction believing its signature
 * dead; someone who saw it in the mempool rebroadcasts it and it is mined: the money moved, and its
 * room, freed, would let the wallet send as much again inside the window.
 *
 * `velocity_charges_guard` kept the ledger's history by allowing one change only: setting
 * `voided_at` once. It now also allows clearing it, nothing else changed. That only ever counts
 * more against a wallet's windows, so the writer may do it as it may void.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await guard(db, sql`(old.voided_at is null) <> (new.voided_at is null)`, "only setting or clearing voided_at");
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await guard(db, sql`old.voided_at is null and new.voided_at is not null`, "only setting voided_at once");
}

/** `velocity_charges_guard` of 20261122T1310_ledger, with the UPDATE it allows on `voided_at`, and its refusal saying so. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function guard(db: Kysely<any>, voidedChange: ReturnType<typeof sql>, allowed: string): Promise<void> {
  await sql`
    create or replace function velocity_charges_guard() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and ${voidedChange}
         and (new.id, new.decision_id, new.transaction_name, new.vault, new.transfer_index, new.group_hash, new.amount, new.charged_at)
             is not distinct from
             (old.id, old.decision_id, old.transaction_name, old.vault, old.transfer_index, old.group_hash, old.amount, old.charged_at)
      then
        return new;
      end if;
      -- Set only inside velocity_prune, which only its owner's privileges can run.
      if tg_op = 'DELETE' and current_setting('countersign.velocity_prune', true) = 'on' then
        return old;
      end if;
      raise exception 'velocity_charges keeps its history: ${sql.raw(allowed)}, or velocity_prune past the retention, is allowed (% refused)', tg_op
        using errcode = 'insufficient_privilege';
    end
    $$`.execute(db);
}
