/**
 * The latest sealed position and hash: what `countersign audit checkpoint` prints for anchoring
 * outside the database, and what `audit verify --checkpoint POSITION:HASH` checks against.
 */
import { sql } from "kysely";
import type { Db } from "../db/connect.js";
import type { Checkpoint } from "./verify.js";
import { hex } from "./sources.js";

export interface SealedCheckpoint extends Checkpoint {
  sealedAt: Date;
  /** Sealed rows per table. */
  rows: Record<string, number>;
}

export async function latestCheckpoint(db: Db): Promise<SealedCheckpoint | null> {
  const { rows } = await sql<{ position: string | number; hash: Uint8Array; sealed_at: Date }>`
    select position, hash, sealed_at from audit_chain order by position desc limit 1`.execute(db);
  const last = rows[0];
  if (!last) return null;
  const { rows: counts } = await sql<{ source: string; rows: string | number }>`
    select source, count(*) as rows from audit_chain where position <= ${last.position} group by source order by source`.execute(db);
  return {
    position: Number(last.position),
    hash: hex(last.hash),
    sealedAt: new Date(last.sealed_at),
    rows: Object.fromEntries(counts.map((c) => [c.source, Number(c.rows)])),
  };
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
