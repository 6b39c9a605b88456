/**
 * `delivery_refusals`: each webhook delivery the platform check refused (docs/interface.md section
 * 11): a body that is not what the custody platform holds for its name, or whose platform copy no
 * longer awaits a signature. Both digests and both bodies are kept, append-only and in the hash
 * chain (`audit_chain_register` adds the bookmark column, the append-only triggers, the writer's
 * insert-only rights and the auditor's read), so that what was sent in the co-signer's name stays
 * readable and provable after the token that sent it is rotated. `transaction_timeline`
 * (migrations/sql/views.sql) shows them beside the transaction's decisions.
 */
import { sql, type Kysely } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table public.delivery_refusals (
      id uuid primary key,
      seq bigint generated always as identity unique,
      refused_at timestamp with time zone not null,
      transaction_name text not null,
      vault text not null,
      code text not null check (code in ('DELIVERY_MISMATCH', 'NOT_AWAITING_SIGNATURE')),
      delivered_digest text not null check (delivered_digest ~ '^[0-9a-f]{64}$'),
      platform_digest text check (platform_digest ~ '^[0-9a-f]{64}$'),
      platform_state text,
      delivered jsonb not null,
      platform jsonb,
      request_id text not null,
      -- The platform has no copy only when it does not know the name: then nothing of it is kept.
      constraint delivery_refusals_copy_or_none check ((platform is null) = (platform_digest is null))
    )`.execute(db);
  await sql`create index delivery_refusals_by_transaction on public.delivery_refusals (transaction_name, seq)`.execute(db);
  await sql`select audit_chain_register('delivery_refusals', 'id', 'refused_at')`.execute(db);
}
