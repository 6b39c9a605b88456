/**
 * The schema a database holds, as `pg_dump --schema-only` prints it, normalised so that two
 * databases built the same way print the same text whatever cluster they live on:
 *
 * - no owners (`--no-owner`): the migrating role differs between clusters;
 * - the monthly partitions of `decisions` (`decisions_YYYY_MM`) left out: which months exist
 *   depends on the day the schema was built, not on the migrations (the default partition and
 *   `decisions_ensure_partitions` stay in);
 * - pg_dump's comments, `SET` preamble, `\restrict` lines and blank lines left out.
 *
 * The pg_dump used is the one whose major version is the server's: a pg_dump of another major
 * prints another text, or refuses a newer server.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import pg from "pg";

/** The server's major version (15 for 15.18). */
export async function serverMajor(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ v: string }>("select current_setting('server_version_num') as v");
    return Math.floor(Number(rows[0]!.v) / 10_000);
  } finally {
    await client.end();
  }
}

/** A pg_dump of the given major: pg_config's, then Debian's versioned directories; undefined if none. */
export function findPgDump(major: number): string | undefined {
  const candidates: string[] = [];
  try {
    candidates.push(path.join(execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim(), "pg_dump"));
  } catch {
    // no pg_config: Debian's directories below
  }
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) for (const v of readdirSync(root)) candidates.push(path.join(root, v, "bin", "pg_dump"));
  return candidates.find((bin) => existsSync(bin) && dumpMajor(bin) === major);
}

function dumpMajor(bin: string): number | undefined {
  try {
    const version = /\(PostgreSQL\) ([0-9]+)/.exec(execFileSync(bin, ["--version"], { encoding: "utf8" }));
    return version ? Number(version[1]) : undefined;
  } catch {
    return undefined;
  }
}

const MONTHLY_PARTITION = "public.decisions_[0-9][0-9][0-9][0-9]_[0-9][0-9]";

export function dumpSchema(pgDump: string, url: string): string {
  const text = execFileSync(pgDump, ["--schema-only", "--no-owner", `--exclude-table=${MONTHLY_PARTITION}`, "--dbname", url], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return normaliseDump(text);
}

export function normaliseDump(text: string): string {
  const kept = text
    .split("\n")
    .filter((line) => !/^--( |$)/.test(line) && !/^SET /.test(line) && !/^\\(un)?restrict /.test(line))
    .filter((line) => !line.startsWith("SELECT pg_catalog.set_config('search_path'"));
  return (
    kept
      .join("\n")
      .replace(/\n{2,}/g, "\n\n")
      .trim() + "\n"
  );
}

/** The fixture's first line names the major its dump was printed by: another major prints another text. */
export function fixtureHeader(major: number): string {
  return `-- pg_dump ${major}: regenerate with npx tsx scripts/schema-fixture.ts (test/fixtures/schema/README.md)`;
}

export function fixtureMajor(fixture: string): number | undefined {
  const header = /^-- pg_dump ([0-9]+):/.exec(fixture);
  return header ? Number(header[1]) : undefined;
}
