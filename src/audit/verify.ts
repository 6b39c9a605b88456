/**
 * `countersign audit verify`: recomputes the hash chain (docs/audit.md "Integrity: the hash chain") and
 * reports the first break. Read-only, so the auditor role can run it. The chain is walked in
 * chunks of positions, so memory stays flat at tens of millions of rows. It calls no function the
 * schema's owner could redefine: digests through trusted-tables.ts, entry hashes through link-hash.ts.
 *
 * Kinds of break:
 * - missing:   a sealed row is gone from its table (and not archived: dated before --from and at
 *              or before the anchored checkpoint), or a chain entry is gone, or the chain ends
 *              before the position a seal in `audit_seals` records (its tail was cut)
 * - changed:   a sealed row no longer hashes to its sealed digest, or a chain entry was edited
 *              (its row_time too), or the entry at an anchored checkpoint does not carry the anchored hash, or the
 *              entry at a seal's last position does not carry the hash that seal recorded
 * - reordered: an entry does not link to the entry before it
 * - inserted:  a row the chain does not hold although the sealer saw it or its time lies before
 *              the last seal, or a second row with a sealed row's key
 * - unsealed:  a row the chain does not hold although it was written longer ago than the grace:
 *              sealing has stopped (a session holding the sealer's lock, a failing sealer)
 * - json_null: a sealed row holds JSON `null` in a json or jsonb column. The canonical row leaves
 *              it out as it leaves out SQL NULL, so the sealed digest cannot say which the row
 *              held; the service writes SQL NULL, so a JSON `null` is one the owner may have
 *              swapped in under the seal (one break per row and column)
 * - planted:   a function, procedure, aggregate, operator, type or cast in schema public (or the
 *              schema verified) that a role other than the trail's owner or a superuser owns: the
 *              owner's SECURITY DEFINER functions may call it, so its owner may have written the
 *              trail with the owner's rights, seals included (planted-objects.ts; one per object)
 */
import { sql, type RawBuilder } from "kysely";
import type { Db } from "../database.js";
import { linkHash, ZERO_HASH } from "./link-hash.js";
import type { Break, BreakKind } from "./breaks.js";
import { plantedObjects } from "./planted-objects.js";
import { SEAL_GRACE_SECONDS } from "./seal-watch.js";
import { auditSources, hex } from "./sources.js";
import { pinSession, relation, trustedNames, type ChainedTable, type TrustedNames } from "./trusted-tables.js";

export { VerifyRefused, type RefusalCode } from "./trusted-tables.js";

export type { Break, BreakKind } from "./breaks.js";

export interface Checkpoint {
  position: number;
  hash: string;
}

export interface VerifyOptions {
  /** The schema holding the trail (default public); every table is read qualified with it. */
  schema?: string;
  /**
   * The archive cut: a chain entry whose row is gone counts as archived when its entry is dated
   * before this time and lies at or before the anchored checkpoint (no anchor: nothing is archived).
   * A row that is still there is always checked.
   */
  from?: Date;
  /** An anchored checkpoint: the entry at that position must carry that hash. */
  checkpoint?: Checkpoint;
  /** Positions per query. */
  chunk?: number;
  /** Unsealed rows this much older than the last seal count as inserted, this much older than now as unsealed (default 5 minutes). */
  graceSeconds?: number;
}

export interface VerifyReport {
  ok: boolean;
  /** The schema verified. */
  schema: string;
  breaks: Break[];
  /** Breaks found in all (only the first MAX_LISTED are kept in `breaks`). */
  breakCount: number;
  firstPosition: number;
  lastPosition: number;
  lastHash: string | null;
  /** Rows written since the last seal and within the grace, not linked yet (not a break). */
  pending: number;
}

const MAX_LISTED = 20;

interface Entry {
  position: number;
  source: string;
  rowKey: string;
  rowDigest: string;
  prevHash: string;
  hash: string;
  intact: boolean;
  /** The entry's row_time is before --from (in the entry hash: the owner cannot move it without breaking the entry). */
  datedBeforeCut: boolean;
  matches: number;
  /** The row was found by its key alone: none carries the entry's row_time. */
  foundByKeyAlone: boolean;
  digestNow: string | null;
  /** The row's json and jsonb columns that hold JSON null. */
  jsonNulls: string[];
}

/**
 * One transaction: the session is pinned first (search_path = pg_catalog, pg_temp, the printing
 * settings) so that no function the schema's owner defines is called, then every table is named
 * with the schema. Throws VerifyRefused (with a code) when it will not read the database as it is.
 */
export async function verifyChain(db: Db, options: VerifyOptions = {}): Promise<VerifyReport> {
  const schema = options.schema ?? "public";
  return db.transaction().execute(async (trx) => {
    const path = await pinSession(trx);
    const sources = await auditSources(trx, (await relation(trx, schema, "audit_sources", path)).name);
    const names = await trustedNames(trx, schema, sources, path);
    return verifyPinned(trx, names, options);
  });
}

async function verifyPinned(db: Db, names: TrustedNames, options: VerifyOptions): Promise<VerifyReport> {
  const from = options.from?.toISOString() ?? "-infinity";
  const found = new Breaks();
  const walked = await walkChain(db, names, options, from, found);
  await sealsAgainstChain(db, names, walked, found);
  for (const t of names.tables) for (const b of await rowsBeforeWalk(db, names.chain, t, walked.start)) found.add(b);
  for (const t of names.tables) for (const b of await duplicateKeys(db, names.chain, t)) found.add(b);
  const unsealed = await unsealedRows(db, names, options.graceSeconds ?? SEAL_GRACE_SECONDS);
  for (const b of unsealed.breaks) found.add(b);
  const trailTables = [...names.tables.map((t) => t.source), "audit_sources", "audit_chain", "audit_seals"];
  for (const b of await plantedObjects(db, names.schema, trailTables)) found.add(b);
  return {
    ok: found.count === 0,
    schema: names.schema,
    breaks: found.list,
    breakCount: found.count,
    firstPosition: walked.start,
    lastPosition: walked.last,
    lastHash: walked.last >= walked.start ? walked.lastHash : null,
    pending: unsealed.pending,
  };
}

/**
 * Every entry from position 1, in chunks of positions: links, gaps and the checkpoint; from the
 * bounds' start on, each entry's row too. Before the start (verify --from), the entries alone are
 * read: their hashes, row_time included, are what lets the anchor stand for them.
 */
async function walkChain(db: Db, names: TrustedNames, options: VerifyOptions, from: string, found: Breaks) {
  const chunk = options.chunk ?? 20_000;
  const bounds = await chainBounds(db, names.chain, options);
  let prevHash = ZERO_HASH;
  let expected = 1;
  const walk = (e: Entry, withRow: boolean) => {
    if (e.position !== expected) {
      found.add({ kind: "missing", position: expected, source: "audit_chain", rowKey: "", detail: `chain entries ${expected}..${e.position - 1} are gone` });
    }
    checkEntry(e, prevHash, options.checkpoint, found, withRow);
    prevHash = e.hash;
    expected = e.position + 1;
  };
  for (let low = 1; low < bounds.start; low += chunk) {
    for (const e of await chainEntriesIn(db, names.chain, low, Math.min(bounds.start - 1, low + chunk - 1))) walk(e, false);
  }
  for (let low = bounds.start; low <= bounds.last; low += chunk) {
    for (const e of await entriesIn(db, names, low, Math.min(bounds.last, low + chunk - 1), from)) walk(e, true);
  }
  if (expected <= bounds.last) {
    found.add({ kind: "missing", position: expected, source: "audit_chain", rowKey: "", detail: `chain entries ${expected}..${bounds.last} are gone` });
  }
  if (options.checkpoint && options.checkpoint.position > bounds.last) {
    found.add({ kind: "missing", position: options.checkpoint.position, source: "audit_chain", rowKey: "", detail: "the chain ends before the anchored checkpoint" });
  }
  return { ...bounds, lastHash: prevHash };
}

class Breaks {
  list: Break[] = [];
  count = 0;
  add(b: Break): void {
    this.count += 1;
    if (this.list.length < MAX_LISTED) this.list.push(b);
  }
}

function checkEntry(e: Entry, prevHash: string, checkpoint: Checkpoint | undefined, found: Breaks, withRow: boolean): void {
  const at = { position: e.position, source: e.source, rowKey: e.rowKey };
  if (!e.intact) found.add({ kind: "changed", ...at, detail: "the chain entry was edited: it no longer hashes to its recorded hash (row_time included)" });
  else if (e.prevHash !== prevHash) found.add({ kind: "reordered", ...at, detail: "the chain entry does not link to the entry before it" });
  if (checkpoint && checkpoint.position === e.position && checkpoint.hash !== e.hash) {
    found.add({ kind: "changed", ...at, detail: `the entry carries ${e.hash}, the anchored checkpoint says ${checkpoint.hash}` });
  }
  if (!withRow) return;
  // A second row with the key is reported by duplicateKeys, whatever its time.
  if (e.matches > 0) {
    if (e.digestNow !== e.rowDigest) found.add({ kind: "changed", ...at, detail: changedDetail(e.foundByKeyAlone) });
    for (const column of e.jsonNulls) found.add(jsonNullBreak(at, column));
  } else if (!archived(e, checkpoint)) {
    found.add({ kind: "missing", ...at, detail: missingDetail(e, checkpoint) });
  }
}

/**
 * A row with the key but not the sealed time is the sealed row with its time edited, or a new row
 * reusing the key of one that was archived (the chain holds the key, so it is never sealed).
 */
function changedDetail(foundByKeyAlone: boolean): string {
  return foundByKeyAlone
    ? "the row with this key is dated otherwise than its sealed row and does not match its sealed digest: the sealed row was edited, or a new row reuses the key of an archived one"
    : "the row no longer matches its sealed digest";
}

/**
 * A gone row is archived only if its entry is dated before --from and an anchored checkpoint
 * covers it: the anchor (taken before archiving, docs/audit.md "Partitions and archiving") is what
 * says the row was sealed before the archive was cut, and what stands for the entry's row_time,
 * which is in the entry's hash.
 */
function archived(e: Entry, checkpoint: Checkpoint | undefined): boolean {
  return e.datedBeforeCut && checkpoint !== undefined && e.position <= checkpoint.position;
}

/** JSON null where the service writes SQL NULL: the sealed digest is the same for both (docs/audit.md "Integrity: the hash chain"). */
function jsonNullBreak(at: { position: number; source: string; rowKey: string }, column: string): Break {
  return {
    kind: "json_null",
    ...at,
    column,
    detail: `${column} holds JSON null, which the sealed digest cannot tell from SQL NULL (the service writes SQL NULL): the row's ${column} may have been swapped under its seal`,
  };
}

function missingDetail(e: Entry, checkpoint: Checkpoint | undefined): string {
  if (!e.datedBeforeCut) return "the sealed row is no longer in its table";
  return checkpoint
    ? `the sealed row is no longer in its table; dated before --from, but after the anchored checkpoint (${checkpoint.position}), so not archived`
    : "the sealed row is no longer in its table; dated before --from, but no anchored checkpoint covers it, so not archived";
}

/**
 * The walk starts at position 1, or with --from and an anchor, at the first entry sealed or dated
 * since --from if that comes before the anchor. sealed_at is not hashed, so the owner can move that
 * start later, but never past the anchor: the entries before it are still walked without their
 * rows, and those rows are still checked (rowsBeforeWalk).
 */
async function chainBounds(db: Db, chain: RawBuilder<unknown>, options: VerifyOptions): Promise<{ start: number; last: number }> {
  const { rows } = await sql<{ last: string | null; from_position: string | null }>`
    select max(position)::text as last,
      -- The first entry sealed since --from, or earlier if its row is dated since (a future-dated row is sealed before its time).
      (select min(position)::text from ${chain}
        where sealed_at >= ${options.from?.toISOString() ?? null}::timestamptz or row_time >= ${options.from?.toISOString() ?? null}::timestamptz) as from_position
    from ${chain}`.execute(db);
  const row = rows[0];
  const last = Number(row?.last ?? 0);
  const cut = options.from && options.checkpoint ? Math.min(Number(row?.from_position ?? last + 1), options.checkpoint.position) : 1;
  return { start: Math.max(1, cut), last };
}

/** The entry's own hash, recomputed here (the database's audit_link_hash is the owner's to redefine). */
function entryIntact(r: { source: string; row_key: string; row_time_text: string }, rowDigest: string, prevHash: string, hash: string): boolean {
  return linkHash(r.source, r.row_key, r.row_time_text, rowDigest, prevHash) === hash;
}

/** The entries in [low, high] alone, without their rows: before the walk's start. */
async function chainEntriesIn(db: Db, chain: RawBuilder<unknown>, low: number, high: number): Promise<Entry[]> {
  const { rows } = await sql<{
    position: string | number;
    source: string;
    row_key: string;
    row_time_text: string;
    row_digest: Uint8Array;
    prev_hash: Uint8Array;
    hash: Uint8Array;
  }>`
    select c.position, c.source, c.row_key, pg_catalog.to_jsonb(c.row_time) #>> '{}' as row_time_text, c.row_digest, c.prev_hash, c.hash
    from ${chain} c where c.position between ${low} and ${high} order by c.position`.execute(db);
  return rows.map((r) => {
    const [rowDigest, prevHash, hash] = [hex(r.row_digest), hex(r.prev_hash), hex(r.hash)];
    return {
      position: Number(r.position),
      source: r.source,
      rowKey: r.row_key,
      rowDigest,
      prevHash,
      hash,
      intact: entryIntact(r, rowDigest, prevHash, hash),
      datedBeforeCut: false,
      matches: 0,
      foundByKeyAlone: false,
      digestNow: null,
      jsonNulls: [],
    };
  });
}

/** The entries in [low, high] with their rows' current digests, one query per source. */
async function entriesIn(db: Db, names: TrustedNames, low: number, high: number, from: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  for (const t of names.tables) {
    const { rows } = await entryQuery(names.chain, t, low, high, from).execute(db);
    for (const r of rows) {
      const [rowDigest, prevHash, hash] = [hex(r.row_digest), hex(r.prev_hash), hex(r.hash)];
      entries.push({
        position: Number(r.position),
        source: t.source,
        rowKey: r.row_key,
        rowDigest,
        prevHash,
        hash,
        intact: entryIntact({ ...r, source: t.source }, rowDigest, prevHash, hash),
        datedBeforeCut: r.dated_before_cut,
        matches: Number(r.matches ?? 0) + Number(r.matches_elsewhere ?? 0),
        foundByKeyAlone: Number(r.matches ?? 0) === 0 && Number(r.matches_elsewhere ?? 0) > 0,
        digestNow: r.digest_now ? hex(r.digest_now) : r.digest_elsewhere ? hex(r.digest_elsewhere) : null,
        jsonNulls: r.json_nulls ?? r.json_nulls_elsewhere ?? [],
      });
    }
  }
  // A position held by two sources would be a forged entry; sorting keeps both, the walk reports it.
  return entries.sort((a, b) => a.position - b.position);
}

interface EntryRow {
  position: string | number;
  row_key: string;
  row_time_text: string;
  row_digest: Uint8Array;
  prev_hash: Uint8Array;
  hash: Uint8Array;
  dated_before_cut: boolean;
  matches: number | null;
  digest_now: Uint8Array | null;
  matches_elsewhere: number | null;
  digest_elsewhere: Uint8Array | null;
  json_nulls: string[] | null;
  json_nulls_elsewhere: string[] | null;
}

/**
 * The row is looked up by key and sealed time (one partition); only when that finds nothing, by
 * key alone (a row whose time was edited is "changed", not "missing"). Whatever --from says, a row
 * that is there is checked.
 */
function entryQuery(chain: RawBuilder<unknown>, s: ChainedTable, low: number, high: number, from: string): RawBuilder<EntryRow> {
  const key = sql.id("t", s.keyColumn);
  const time = sql.id("t", s.timeColumn);
  const keyValue = sql`c.row_key::${sql.raw(s.keyType)}`;
  return sql<EntryRow>`
    select c.position, c.row_key, c.row_digest, c.prev_hash, c.hash,
      pg_catalog.to_jsonb(c.row_time) #>> '{}' as row_time_text,
      c.row_time < ${from}::timestamptz as dated_before_cut,
      r.matches, r.digest_now, r.json_nulls, e.matches as matches_elsewhere, e.digest_now as digest_elsewhere, e.json_nulls as json_nulls_elsewhere
    from ${chain} c
    left join lateral (
      select count(*)::int as matches, (array_agg(${s.digest}))[1] as digest_now, (array_agg(${s.jsonNulls}))[1] as json_nulls
      from ${s.table} t where ${key} = ${keyValue} and ${time} = c.row_time
    ) r on true
    left join lateral (
      select count(*)::int as matches, (array_agg(${s.digest}))[1] as digest_now, (array_agg(${s.jsonNulls}))[1] as json_nulls
      from ${s.table} t where r.matches = 0 and ${key} = ${keyValue}
    ) e on true
    where c.source = ${s.source} and c.position between ${low} and ${high}
    order by c.position`;
}

/**
 * Every seal records the position and hash the chain ended at when it committed (one transaction
 * with its entries), and `audit_seals` keeps them however old months are archived: the chain must
 * still reach the latest seal's last position, and each seal's last position must carry the hash
 * that seal recorded. Deleting the newest entries and their rows otherwise left a shorter chain
 * that links and matches an anchor taken before them. A gone entry inside the chain is already a
 * gap of the walk. Cutting the seals as well as the tail shows only against an anchor taken after
 * the cut entries.
 */
async function sealsAgainstChain(db: Db, names: TrustedNames, walked: { last: number }, found: Breaks): Promise<void> {
  const { rows: latest } = await sql<{ id: string; last_position: string; last_hash: Uint8Array }>`
    select id::text as id, last_position::text as last_position, last_hash from ${names.seals}
    order by last_position desc, id desc limit 1`.execute(db);
  const end = latest[0];
  if (end && Number(end.last_position) > walked.last) {
    const to = Number(end.last_position);
    found.add({
      kind: "missing",
      position: walked.last + 1,
      source: "audit_chain",
      rowKey: "",
      detail:
        `the chain ends at position ${walked.last}, but seal ${end.id} in audit_seals sealed up to position ${to} (hash ${hex(end.last_hash)}): ` +
        `chain entries ${walked.last + 1}..${to} are gone, with the rows they sealed`,
    });
  }
  const { rows } = await sql<{ id: string; last_position: string; last_hash: Uint8Array; hash: Uint8Array; total: string }>`
    select s.id::text as id, s.last_position::text as last_position, s.last_hash, c.hash, (count(*) over ())::text as total
    from ${names.seals} s join ${names.chain} c on c.position = s.last_position
    where c.hash <> s.last_hash
    order by s.last_position, s.id
    limit ${MAX_LISTED}`.execute(db);
  for (const r of rows) {
    found.add({
      kind: "changed",
      position: Number(r.last_position),
      source: "audit_chain",
      rowKey: "",
      detail: `the entry carries ${hex(r.hash)}, but seal ${r.id} in audit_seals recorded ${hex(r.last_hash)} for this position`,
    });
  }
  // Past the ones read, only counted.
  found.count += Number(rows[0]?.total ?? 0) - rows.length;
}

/**
 * Rows whose entries lie before the walk's start (verify --from with an anchor): still checked
 * against their sealed digests, since what set the start (sealed_at) is not hashed, and for JSON
 * null. A key with a twin passes the digest check when one of its rows
 * matches; duplicateKeys reports the twin.
 */
async function rowsBeforeWalk(db: Db, chain: RawBuilder<unknown>, s: ChainedTable, start: number): Promise<Break[]> {
  if (start <= 1) return [];
  const key = sql.id("t", s.keyColumn);
  const time = sql.id("t", s.timeColumn);
  const { rows } = await sql<{ position: string | number; row_key: string; key_alone: boolean; changed: boolean; json_nulls: string[] | null }>`
    select * from (
      select c.position, c.row_key, not bool_or(${time} = c.row_time) as key_alone, not bool_or(${s.digest} = c.row_digest) as changed,
        (array_agg(${s.jsonNulls}))[1] as json_nulls
      from ${s.table} t join ${chain} c on c.source = ${s.source} and c.row_key = ${key}::text
      where c.position < ${start}
      group by c.position, c.row_key
    ) checked
    where changed or json_nulls <> '[]'
    order by position`.execute(db);
  return rows.flatMap((r) => {
    const at = { position: Number(r.position), source: s.source, rowKey: r.row_key };
    const changed: Break[] = r.changed ? [{ kind: "changed", ...at, detail: changedDetail(r.key_alone) }] : [];
    return [...changed, ...(r.json_nulls ?? []).map((column) => jsonNullBreak(at, column))];
  });
}

/**
 * Keys that more than one row carries, in the whole table (a twin may be dated anywhere, before
 * `--from` too). `decisions` is unique on (id, decided_at) only, since a partitioned table's keys
 * must hold its partition column; a twin of a sealed row is never sealed itself (the chain holds
 * its key), so only this finds it.
 */
async function duplicateKeys(db: Db, chain: RawBuilder<unknown>, s: ChainedTable): Promise<Break[]> {
  const key = sql.id("t", s.keyColumn);
  const { rows } = await sql<{ row_key: string; rows: number; position: string | number | null }>`
    select d.row_key, d.rows, c.position
    from (select ${key}::text as row_key, count(*)::int as rows from ${s.table} t group by ${key} having count(*) > 1) d
    left join ${chain} c on c.source = ${s.source} and c.row_key = d.row_key
    order by c.position nulls last, d.row_key`.execute(db);
  return rows.map((r) => ({
    kind: "inserted",
    position: r.position === null ? null : Number(r.position),
    source: s.source,
    rowKey: r.row_key,
    detail: `${r.rows} rows carry this key${r.position === null ? "" : ", sealed once"}: all but one were inserted beside it`,
  }));
}

/**
 * Rows the chain does not hold, dated anywhere (a row dated before --from is there, so it is
 * checked): pending (written since the last seal, within the grace), inserted (the last seal saw
 * them, or they are dated more than the grace before it) or unsealed (dated more than the grace
 * before now: sealing has stopped).
 */
async function unsealedRows(db: Db, names: TrustedNames, graceSeconds: number): Promise<{ breaks: Break[]; pending: number }> {
  const { rows: seals } = await sql<{ horizon: string; sealed_at: Date }>`
    select horizon::text as horizon, sealed_at from ${names.seals} order by id desc limit 1`.execute(db);
  const seal = seals[0];
  const breaks: Break[] = [];
  let pending = 0;
  for (const s of names.tables) {
    const key = sql.id("t", s.keyColumn);
    const time = sql.id("t", s.timeColumn);
    const grace = sql`make_interval(secs => ${graceSeconds}::int)`;
    const { rows } = await sql<UnsealedCounts>`
      with unsealed as (
        select ${key}::text as row_key, ${time} as row_time,
          case
            when coalesce(t.written_xid < ${seal?.horizon ?? null}::xid8, false)
              or coalesce(${time} < ${seal?.sealed_at ?? null}::timestamptz - ${grace}, false) then 'inserted'
            when ${time} < now() - ${grace} then 'unsealed'
            else 'pending'
          end as state
        from ${s.table} t
        where not exists (select 1 from ${names.chain} c where c.source = ${s.source} and c.row_key = ${key}::text)
      )
      select count(*) filter (where state = 'pending')::int as pending,
        count(*) filter (where state = 'inserted')::int as inserted,
        count(*) filter (where state = 'unsealed')::int as unsealed,
        (array_agg(row_key order by row_time, row_key) filter (where state = 'inserted'))[1:${MAX_LISTED}::int] as inserted_keys,
        (array_agg(row_key order by row_time, row_key) filter (where state = 'unsealed'))[1:${MAX_LISTED}::int] as unsealed_keys
      from unsealed`.execute(db);
    const r = rows[0];
    pending += Number(r?.pending ?? 0);
    breaks.push(
      ...unsealedBreaks(
        s.source,
        "inserted",
        Number(r?.inserted ?? 0),
        r?.inserted_keys ?? [],
        "the chain does not hold this row, yet the sealer saw it or it is dated before the last seal",
      ),
    );
    breaks.push(
      ...unsealedBreaks(
        s.source,
        "unsealed",
        Number(r?.unsealed ?? 0),
        r?.unsealed_keys ?? [],
        `written more than ${graceSeconds} s ago and still not sealed: sealing has stopped (is a sealer running, or is its lock held elsewhere?)`,
      ),
    );
  }
  return { breaks, pending };
}

interface UnsealedCounts {
  pending: number;
  inserted: number;
  unsealed: number;
  inserted_keys: string[] | null;
  unsealed_keys: string[] | null;
}

function unsealedBreaks(source: string, kind: BreakKind, count: number, keys: string[], detail: string): Break[] {
  return Array.from({ length: count }, (_, i) => ({ kind, position: null, source, rowKey: keys[i] ?? "", detail }));
}
