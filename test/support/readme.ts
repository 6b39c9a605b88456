/**
 * README.md's SQL: its ```sql blocks as statements, and its chain recomputation ("Integrity: the
 * hash chain") run as compliance would run it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import type { Db } from "../../src/db/connect.js";

export const README = readFileSync(path.resolve(import.meta.dirname, "../../README.md"), "utf8");

/** The statements of every ```sql block, without their full-line comments. */
export function sqlStatements(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks
    .flatMap((block) => block.split(/;\s*(?:\n|$)/))
    .map((statement) => statement.replace(/^\s*--.*$/gm, "").trim())
    .filter((statement) => statement.length > 0);
}

export interface ReadmeBreak {
  position: number | string | null;
  source: string;
  row_key: string | null;
  break: string;
}

/** The README's chain recomputation, run as one session: its statements in order, the last one's first row (none: intact). */
export async function readmeFirstBreak(db: Db): Promise<ReadmeBreak | undefined> {
  const block = [...README.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes("with sealed_rows as"));
  if (!block) throw new Error("README lost its chain recomputation query");
  return db.connection().execute(async (c) => {
    try {
      let rows: unknown[] = [];
      for (const statement of sqlStatements(`\`\`\`sql\n${block}\`\`\``)) rows = (await sql.raw(statement).execute(c)).rows;
      return rows[0] as ReadmeBreak | undefined;
    } finally {
      // The block's `set`s last for the session: reset them before the pool hands it on.
      await sql`reset all`.execute(c);
    }
  });
}
