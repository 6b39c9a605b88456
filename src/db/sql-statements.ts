/**
 * Splits a SQL source file into its statements: at each `;` outside quotes, dollar-quoted bodies
 * and comments. PGlite runs one statement per query (its extended protocol), and a Postgres error
 * then names the statement that failed rather than the file.
 */
export function splitStatements(source: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  while (i < source.length) {
    const rest = source.slice(i);
    const dollar = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(rest);
    if (rest.startsWith("--")) i = endOf(source, "\n", i + 2);
    else if (rest.startsWith("/*")) i = endOf(source, "*/", i + 2);
    else if (rest[0] === "'") i = endOf(source, "'", i + 1);
    else if (rest[0] === '"') i = endOf(source, '"', i + 1);
    else if (dollar) i = endOf(source, dollar[0], i + dollar[0].length);
    else if (rest[0] === ";") {
      pushStatement(statements, source.slice(start, i));
      start = ++i;
    } else i++;
  }
  pushStatement(statements, source.slice(start));
  return statements;
}

/** The index just past the next `close` at or after `from` (a doubled `''` closes and reopens). */
function endOf(source: string, close: string, from: number): number {
  const at = source.indexOf(close, from);
  return at === -1 ? source.length : at + close.length;
}

function pushStatement(statements: string[], text: string): void {
  const withoutComments = text.replace(/--[^\n]*/g, "").trim();
  if (withoutComments !== "") statements.push(text.trim());
}
