/**
 * The latest sealed position and hash: what `countersign audit checkpoint` prints for anchoring
 * outside the database, and what `audit verify --checkpoint POSITION:HASH` checks against.
 */
import { sql } from "kysely";
import type { Db } from "../database.js";
import type { Checkpoint } from "./verify.js";
import { hex } from "./sources.js";
import { pinSession, relation } from "./trusted-tables.js";

export interface SealedCheckpoint extends Checkpoint {
  sealedAt: Date;
  /** Sealed rows per table. */
  rows: Record<string, number>;
}

/**
 * Read as verify reads: search_path pinned first and audit_chain named with its schema, so that
 * what gets anchored is the chain the service writes, not a copy the session's own path finds first.
 */
export async function latestCheckpoint(db: Db, schema = "public"): Promise<SealedCheckpoint | null> {
  return db.transaction().execute(async (trx) => {
    const chain = (await relation(trx, schema, "audit_chain", await pinSession(trx))).name;
    const { rows } = await sql<{ position: string | number; hash: Uint8Array; sealed_at: Date }>`
      select position, hash, sealed_at from ${chain} order by position desc limit 1`.execute(trx);
    const last = rows[0];
    if (!last) return null;
    const { rows: counts } = await sql<{ source: string; rows: string | number }>`
      select source, count(*) as rows from ${chain} where position <= ${last.position} group by source order by source`.execute(trx);
    return {
      position: Number(last.position),
      hash: hex(last.hash),
      sealedAt: new Date(last.sealed_at),
      rows: Object.fromEntries(counts.map((c) => [c.source, Number(c.rows)])),
    };
  });
}

const CHECKPOINT = /^([1-9][0-9]*):([0-9a-f]{64})$/;

/** `POSITION:HASH` as `audit checkpoint` prints it on its `anchor` line. */
export function parseCheckpoint(text: string): Checkpoint | null {
  const m = CHECKPOINT.exec(text.trim().toLowerCase());
  return m ? { position: Number(m[1]), hash: m[2]! } : null;
}

export function formatCheckpoint(c: Checkpoint): string {
  return `${c.position}:${c.hash}`;
}
