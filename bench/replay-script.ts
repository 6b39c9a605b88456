/**
 * Turns the statements one decision issued (bench/capture.ts) into a pgbench script that replays
 * them as distinct decisions: the transaction name, the source wallet, the decision's UUIDs and
 * the values derived from them (group hashes, advisory-lock ids) become per-transaction
 * expressions; everything else stays exactly as captured. Pure: no database, no clock.
 *
 * How a value is classified, from three captures: A (name 1, wallet X), B (name 2, wallet X) and
 * C (name 3, wallet Y). In A's values, the name's token and the wallet's token are known; a UUID
 * or a hash-like atom (64 hex digits, an integer of 12 digits or more) absent from B changes with
 * the decision; present in B but absent from C it changes with the wallet; present in all three it
 * is a constant (the policy digest).
 *
 * pgbench in `-M prepared` mode reads `:word` anywhere, string literals included, as a variable:
 * every colon in a literal is written as chr(58).
 */
import type { CapturedStatement } from "./capture.js";

export interface ReplayInput {
  /** Capture A, in order. */
  statements: CapturedStatement[];
  /** Each statement's parameter types as the server infers them (regtype names); [] without parameters. */
  parameterTypes: string[][];
  /** The 32 hex digits that make capture A's transaction name distinct. */
  nameToken: string;
  /** Capture A's source wallet's last path segment, a prefix and a number (`hot7391`). */
  walletToken: string;
  /** Everything capture B sent (same wallet, another name), as one string to search. */
  sameWallet: string;
  /** Everything capture C sent (another wallet), as one string to search. */
  otherWallet: string;
  /** How many distinct wallets the replay spreads over. */
  wallets: number;
}

export interface ReplayScript {
  /** pgbench `\set` lines, in order. */
  variables: Array<{ name: string; expression: string }>;
  /** One SQL command per round trip. */
  commands: string[];
  /** `prepared` unless a command holds several statements (a simple-protocol query). */
  mode: "prepared" | "simple";
}

const INT64_MAX = "9223372036854775806";
const NAME_HEX = "(lpad(to_hex((:r1)::int8), 16, '0') || lpad(to_hex((:r2)::int8), 16, '0'))";
const ATOM = /(?<![0-9A-Za-z.])([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{64}|-?[0-9]{12,})(?![0-9A-Za-z.])/g;

export function buildReplayScript(input: ReplayInput): ReplayScript {
  const derived = new Derived(input);
  const commands = input.statements.map((s, i) => {
    const types = input.parameterTypes[i] ?? [];
    const text = withoutColonsInLiterals(s.text.trim().replace(/;\s*$/, ""));
    const bound = text.replace(/\$([0-9]+)/g, (_m, n: string) => {
      const k = Number(n) - 1;
      if (k >= s.values.length) throw new Error(`statement ${i + 1} names $${n} but sent ${s.values.length} parameters`);
      return castTo(derived.expression(s.values[k]!), types[k]);
    });
    return splitsIntoStatements(bound) ? joinStatements(bound) : bound;
  });
  const mode = commands.some((c) => c.includes("\\;")) ? "simple" : "prepared";
  return { variables: derived.variables(), commands, mode };
}

/** The script as pgbench reads it (`-f`). */
export function renderPgbenchScript(script: ReplayScript): string {
  const sets = script.variables.map((v) => `\\set ${v.name} ${v.expression}`);
  return [...sets, ...script.commands.map((c) => `${c};`)].join("\n") + "\n";
}

class Derived {
  private readonly uuids = new Map<string, string>();
  private readonly perWallet = new Map<string, string>();
  private readonly perName = new Map<string, string>();
  private readonly walletInts: string[] = [];
  private readonly nameInts: string[] = [];
  private readonly walletPrefix: string;
  private readonly walletPattern: RegExp;

  constructor(private readonly input: ReplayInput) {
    const m = /^(.*?)([0-9]+)$/.exec(input.walletToken);
    if (!m) throw new Error(`wallet token ${input.walletToken} does not end in a number`);
    this.walletPrefix = m[1]!;
    this.walletPattern = new RegExp(`(?<![0-9A-Za-z])${escapeRegExp(input.walletToken)}(?![0-9])`, "g");
  }

  variables(): ReplayScript["variables"] {
    return [
      { name: "r1", expression: `random(0, ${INT64_MAX})` },
      { name: "r2", expression: `random(0, ${INT64_MAX})` },
      { name: "w", expression: `random(0, ${this.input.wallets - 1})` },
      ...this.walletInts.map((name, k) => ({ name, expression: `hash(:w, ${k + 1})` })),
      ...this.nameInts.map((name, k) => ({ name, expression: `hash(:r1, ${k + 1})` })),
    ];
  }

  /** A SQL expression (text, or bytea for bytes) standing for one captured value. */
  expression(value: string | Buffer | null): string {
    if (value === null) return "null";
    if (Buffer.isBuffer(value)) return `'\\x${value.toString("hex")}'`;
    const parts: string[] = [];
    for (const piece of this.pieces(value)) parts.push(piece.literal !== undefined ? literal(piece.literal) : piece.sql!);
    return parts.length === 0 ? "''" : parts.length === 1 ? parts[0]! : `(${parts.join(" || ")})`;
  }

  private *pieces(value: string): Generator<{ literal?: string; sql?: string }> {
    const { nameToken } = this.input;
    const marks: Array<{ at: number; length: number; sql: string }> = [];
    for (const m of value.matchAll(new RegExp(escapeRegExp(nameToken), "g"))) marks.push({ at: m.index, length: nameToken.length, sql: NAME_HEX });
    for (const m of value.matchAll(this.walletPattern)) {
      marks.push({ at: m.index, length: m[0].length, sql: `(${literal(this.walletPrefix)} || ((:w)::int8)::text)` });
    }
    for (const m of value.matchAll(ATOM)) {
      if (marks.some((k) => m.index < k.at + k.length && k.at < m.index + m[0].length)) continue;
      const sql = this.atom(m[0]);
      if (sql !== null) marks.push({ at: m.index, length: m[0].length, sql });
    }
    marks.sort((a, b) => a.at - b.at);
    let at = 0;
    for (const mark of marks) {
      if (mark.at > at) yield { literal: value.slice(at, mark.at) };
      yield { sql: mark.sql };
      at = mark.at + mark.length;
    }
    if (at < value.length) yield { literal: value.slice(at) };
  }

  /** The expression for a UUID or hash-like atom, or null when it is the same in every capture. */
  private atom(atom: string): string | null {
    const inB = this.input.sameWallet.includes(atom);
    if (inB && this.input.otherWallet.includes(atom)) return null;
    const isUuid = atom.includes("-") && atom.length === 36;
    const isHex = /^[0-9a-f]{64}$/.test(atom);
    if (!inB) {
      if (isUuid) return remember(this.uuids, atom, (k) => `(md5(${NAME_HEX} || 'u${k}')::uuid)::text`);
      if (isHex) return remember(this.perName, atom, (k) => `encode(sha256(convert_to(${NAME_HEX} || '/n${k}', 'UTF8')), 'hex')`);
      return remember(this.perName, atom, (k) => intVariable(this.nameInts, `n${k}`));
    }
    if (isHex) return remember(this.perWallet, atom, (k) => `encode(sha256(convert_to('g${k}/' || ((:w)::int8)::text, 'UTF8')), 'hex')`);
    if (isUuid) return remember(this.perWallet, atom, (k) => `(md5('g${k}/' || ((:w)::int8)::text)::uuid)::text`);
    return remember(this.perWallet, atom, (k) => intVariable(this.walletInts, `g${k}`));
  }
}

function remember(map: Map<string, string>, atom: string, make: (k: number) => string): string {
  let sql = map.get(atom);
  if (sql === undefined) {
    sql = make(map.size + 1);
    map.set(atom, sql);
  }
  return sql;
}

function intVariable(list: string[], name: string): string {
  list.push(name);
  return `((:${name})::int8)::text`;
}

/** A SQL string literal, its colons as chr(58) so that pgbench sees no `:word`. */
export function literal(text: string): string {
  const parts = text.split(":").map((p) => `'${p.replaceAll("'", "''")}'`);
  return parts.length === 1 ? parts[0]! : `(${parts.join(" || chr(58) || ")})`;
}

function castTo(expression: string, type: string | undefined): string {
  if (expression === "null") return type && type !== "unknown" ? `null::${type}` : "null";
  return type && type !== "unknown" ? `${expression}::${type}` : expression;
}

/** The statement's own string literals, with their colons as chr(58). */
function withoutColonsInLiterals(text: string): string {
  return text.replace(/(?<![A-Za-z0-9_])'((?:[^']|'')*)'/g, (whole, body: string) => (body.includes(":") ? literal(body.replaceAll("''", "'")) : whole));
}

/** Whether a simple-protocol query holds several statements (a `;` outside quotes). */
function splitsIntoStatements(text: string): boolean {
  return outsideQuotes(text).includes(";");
}

/** Several statements sent as one simple query: pgbench keeps them one command with `\;`. */
function joinStatements(text: string): string {
  const masked = outsideQuotes(text);
  let out = "";
  for (let i = 0; i < text.length; i++) out += masked[i] === ";" ? "\\;" : text[i];
  return out;
}

/** The text with every quoted character replaced by a space (same length). */
function outsideQuotes(text: string): string {
  let out = "";
  let quote: string | null = null;
  for (const ch of text) {
    if (quote) {
      out += " ";
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += " ";
    } else out += ch;
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
