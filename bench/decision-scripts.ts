/**
 * Writes the SQL ceiling's and the durable floor's pgbench scripts, as `npm run bench` replays
 * them, to a folder: to replay them elsewhere, such as against a server whose backends run under
 * callgrind (README "What a decision costs").
 *
 *   npx tsx bench/decision-scripts.ts postgres://user@host:5432/db OUT_DIR
 *
 * Migrates that database (it must be one you can write to: one captured decision is left in it),
 * captures one fresh allowed decision with the example policy, and writes OUT_DIR/ceiling.sql and
 * OUT_DIR/floor.sql, each to run with `pgbench -n -M prepared -f FILE` on a migrated database.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { openDatabase } from "../src/database.js";
import { migrateToLatest } from "../src/db/migrate.js";
import { captureDecisionSql } from "./decision-sql.js";
import { renderPgbenchScript } from "./replay-script.js";

const [url, outDir] = process.argv.slice(2);
if (!url || !outDir) {
  console.error("usage: npx tsx bench/decision-scripts.ts DATABASE_URL OUT_DIR");
  process.exit(2);
}
const handle = await openDatabase({ url, maxConnections: 2 });
try {
  await migrateToLatest(handle.db);
} finally {
  await handle.close();
}
const scripts = await captureDecisionSql(url, path.resolve(import.meta.dirname, "../policies"), 10_000);
mkdirSync(outDir, { recursive: true });
for (const [name, script] of [
  ["ceiling", scripts.ceiling],
  ["floor", scripts.floor],
] as const) {
  const file = path.join(outDir, `${name}.sql`);
  writeFileSync(file, renderPgbenchScript(script));
  console.log(`${file}: pgbench -n -M ${script.mode} -f ${file}`);
}
