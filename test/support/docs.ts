/**
 * The project's documentation (README.md and every docs/*.md page) as one text, its ```sql
 * blocks as statements, and the audit trail's chain recomputation (docs/audit.md, "Integrity: the
 * hash chain") run as compliance would run it.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import type { Db } from "../../src/database.js";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The markdown files a user reads: README.md, then docs/*.md in name order. */
export const DOC_FILES = [
  "README.md",
  ...readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`),
];

export const DOCS = DOC_FILES.map((f) => readFileSync(path.join(ROOT, f), "utf8")).join("\n");

/** The statements of every ```sql block, without their full-line comments. */
export function sqlStatements(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks
    .flatMap((block) => block.split(/;\s*(?:\n|$)/))
    .map((statement) => statement.replace(/^\s*--.*$/gm, "").trim())
    .filter((statement) => statement.length > 0);
}

/** The ```sql block of the docs that contains `marker`. */
export function sqlBlock(marker: string): string {
  const block = [...DOCS.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes(marker));
  if (!block) throw new Error(`the docs lost the query holding "${marker}"`);
  return block;
}

export interface DocsBreak {
  position: number | string | null;
  source: string;
  row_key: string | null;
  break: string;
}

/** The docs' chain recomputation, run as one session: its statements in order, the last one's first row (none: intact). */
export async function docsFirstBreak(db: Db): Promise<DocsBreak | undefined> {
  const block = sqlBlock("with sealed_rows as");
  return db.connection().execute(async (c) => {
    try {
      let rows: unknown[] = [];
      for (const statement of sqlStatements(`\`\`\`sql\n${block}\`\`\``)) rows = (await sql.raw(statement).execute(c)).rows;
      return rows[0] as DocsBreak | undefined;
    } finally {
      // The block's `set`s last for the session: reset them before the pool hands it on.
      await sql`reset all`.execute(c);
    }
  });
}
