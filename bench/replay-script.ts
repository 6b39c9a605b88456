/**
 * Turns the statements one decision issued (bench/capture.ts) into a pgbench script that replays
 * them as distinct decisions: the transaction name, the source wallet, the decision's UUIDs and
 * the values derived from them (group hashes, advisory-lock ids) become per-transaction pgbench
 * variables; everything else stays exactly as captured. Pure: no database, no clock.
 *
 * How a value is classified, from three captures: A (name 1, wallet X), B (name 2, wallet X) and
 * C (name 3, wallet Y). In A, the name's token and the wallet's token are known; a UUID or a
 * hash-like atom (64 hex digits, an integer of 12 digits or more) absent from B changes with the
 * decision; present in B but absent from C it changes with the wallet; present in all three it
 * is a constant (the policy digest). Replacements are made of decimal digits, which are hex
 * digits too, so a UUID or a hash keeps its shape.
 *
 * Values travel two ways. A parameter of an extended-protocol statement becomes a SQL expression
 * cast to the type the server inferred for it, evaluated at every execution. A literal inside a
 * simple-protocol query's text (values embedded with pg's escapeLiteral) keeps its place and its
 * quotes, with `:variable` references inside it: pgbench substitutes those textually in
 * `-M simple`, which such a script then uses. In `-M prepared` pgbench reads any `:word`, string
 * literals included, as a variable: there every colon in a literal is written as chr(58).
 */
import type { CapturedStatement } from "./capture.js";

export interface ReplayInput {
  /** Capture A, in order. */
  statements: CapturedStatement[];
  /** Each statement's parameter types as the server infers them (regtype names); [] without parameters. */
  parameterTypes: string[][];
  /** What makes capture A's transaction name distinct (its last path segment). */
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

/** A pgbench `\set`: a uniform random integer, or a hash of another variable folded to a fixed width. */
export type Variable = { name: string; kind: "random"; min: bigint; max: bigint } | { name: string; kind: "hash"; of: string; seed: number; digits?: number };

export interface ReplayScript {
  variables: Variable[];
  /** One SQL command per statement sent (a multi-statement simple query is one). */
  commands: string[];
  /** Each command's round trip, counted from 0: commands sharing one are pipelined. */
  roundTrips: number[];
  /** `prepared` unless a command holds several statements or literals with variables inside. */
  mode: "prepared" | "simple";
}

type Part = { text: string } | { variable: string };

const NAME = "cs_n";
const WALLET = "cs_w";
const ATOM = /(?<![0-9A-Za-z.])([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{64}|-?[0-9]{12,})(?![0-9A-Za-z.])/g;

export function buildReplayScript(input: ReplayInput): ReplayScript {
  const values = new Values(input);
  let inlined = false;
  const commands = input.statements.map((s, i) => {
    const types = input.parameterTypes[i] ?? [];
    const trimmed = s.text.trim().replace(/;\s*$/, "");
    const text = s.extended
      ? withoutColonsInLiterals(trimmed)
      : mapLiterals(trimmed, (body, escaped) => {
          const parts = values.parts(body);
          if (!parts.some((p) => "variable" in p)) return null;
          inlined = true;
          return `'${parts.map((p) => ("variable" in p ? `:${p.variable}` : quoteBody(p.text, escaped))).join("")}'`;
        });
    const bound = text.replace(/\$([0-9]+)/g, (_m, n: string) => {
      const k = Number(n) - 1;
      if (k >= s.values.length) throw new Error(`statement ${i + 1} names $${n} but sent ${s.values.length} parameters`);
      return castTo(values.expression(s.values[k]!), types[k]);
    });
    return splitsIntoStatements(bound) ? joinStatements(bound) : bound;
  });
  const mode = inlined || commands.some((c) => c.includes("\\;")) ? "simple" : "prepared";
  const roundTrips = input.statements.map((s) => s.roundTrip);
  if (mode === "simple" && new Set(roundTrips).size < roundTrips.length) throw new Error("pipelined statements cannot replay in pgbench's simple mode");
  return { variables: values.variables(), commands, roundTrips, mode };
}

/** The script as pgbench reads it (`-f`): commands sharing a round trip inside \startpipeline … \endpipeline. */
/**
 * `members` decisions of `script` in one transaction, as a shared transaction runs them
 * (src/decision/batches.ts): `begin` and every member's read in the first round trip, every
 * member's write and `commit` in the second. The service's batch functions call the same
 * per-decision functions in a loop, with the server's check that no two members share a name or
 * a window group. Each member has variables of its own (its own name), and draws its wallet from
 * its own share of the wallets: no two members of one transaction share a window group, and two
 * transactions take their groups' locks in the same order (member by member), so none deadlocks.
 */
export function sharedTransactionScript(script: ReplayScript, members: number): ReplayScript {
  const last = script.commands.length - 1;
  if (script.commands[0] !== "begin" || script.commands[last] !== "commit" || new Set(script.roundTrips).size !== 2) {
    throw new Error("a shared transaction is made from a script of two round trips that begins and commits");
  }
  const names = new Set(script.variables.map((v) => v.name));
  const own = (k: number) => (name: string) => `${name}_m${k}`;
  const renamed = (command: string, k: number) => command.replace(/(?<!:):([a-z][a-z0-9_]*)/g, (whole, name: string) => (names.has(name) ? `:${own(k)(name)}` : whole));
  const body = (trip: number) => script.commands.slice(1, last).filter((_c, i) => script.roundTrips[i + 1] === trip);
  const [first, second] = [...new Set(script.roundTrips)] as [number, number];
  const ks = Array.from({ length: members }, (_, k) => k);
  const variables = ks.flatMap((k) => script.variables.map((v) => memberVariable(v, k, members, own(k))));
  const reads = ks.flatMap((k) => body(first).map((c) => renamed(c, k)));
  const writes = ks.flatMap((k) => body(second).map((c) => renamed(c, k)));
  return {
    variables,
    commands: ["begin", ...reads, ...writes, "commit"],
    roundTrips: [0, ...reads.map(() => 0), ...writes.map(() => 1), 1],
    mode: script.mode,
  };
}

/** A variable renamed for member `k` of `members`; the wallet drawn from the member's own share. */
function memberVariable(v: Variable, k: number, members: number, own: (name: string) => string): Variable {
  if (v.kind === "hash") return { ...v, name: own(v.name), of: own(v.of) };
  if (v.name !== WALLET) return { ...v, name: own(v.name) };
  const share = (v.max - v.min + 1n) / BigInt(members);
  if (share < 1n) throw new Error(`${members} members need at least as many wallets`);
  return { ...v, name: own(v.name), min: v.min + share * BigInt(k), max: v.min + share * BigInt(k + 1) - 1n };
}

export function renderPgbenchScript(script: ReplayScript): string {
  const lines = script.variables.map((v) => `\\set ${v.name} ${pgbenchExpression(v)}`);
  script.commands.forEach((c, i) => {
    const trip = script.roundTrips[i];
    const pipelined = script.roundTrips.filter((t) => t === trip).length > 1;
    if (pipelined && script.roundTrips[i - 1] !== trip) lines.push("\\startpipeline");
    lines.push(`${c};`);
    if (pipelined && script.roundTrips[i + 1] !== trip) lines.push("\\endpipeline");
  });
  return lines.join("\n") + "\n";
}

function pgbenchExpression(v: Variable): string {
  if (v.kind === "random") return `random(${v.min}, ${v.max})`;
  if (v.digits === undefined) return `hash(:${v.of}, ${v.seed})`;
  const low = 10n ** BigInt(v.digits - 1);
  return `${low} + abs(mod(hash(:${v.of}, ${v.seed}), ${9n * low}))`;
}

/** Exactly `digits` decimal digits (at most 18, to stay in int8), from a hash: what pgbenchExpression computes. */
export function foldToDigits(hash: bigint, digits: number): bigint {
  const low = 10n ** BigInt(digits - 1);
  const m = hash % (9n * low);
  return low + (m < 0n ? -m : m);
}

class Values {
  private readonly vars: Variable[] = [
    { name: NAME, kind: "random", min: 10n ** 18n, max: 9223372036854775806n },
    { name: WALLET, kind: "random", min: 0n, max: 0n },
  ];
  private readonly atoms = new Map<string, Part[]>();
  private readonly walletPrefix: string;
  private readonly walletPattern: RegExp;
  private readonly namePattern: RegExp;

  constructor(private readonly input: ReplayInput) {
    const m = /^(.*?)([0-9]+)$/.exec(input.walletToken);
    if (!m) throw new Error(`wallet token ${input.walletToken} does not end in a number`);
    this.walletPrefix = m[1]!;
    this.vars[1] = { name: WALLET, kind: "random", min: 0n, max: BigInt(input.wallets - 1) };
    this.walletPattern = new RegExp(`(?<![0-9A-Za-z])${escapeRegExp(input.walletToken)}(?![0-9])`, "g");
    this.namePattern = new RegExp(escapeRegExp(input.nameToken), "g");
  }

  variables(): Variable[] {
    return this.vars;
  }

  /**
   * A parameter as a SQL expression (text, or bytea's text for bytes) that the server evaluates
   * at every execution, as it reads a bound parameter at every execution. A bare literal would be
   * read once, when the statement is prepared: a constant value goes through concat() too, a
   * stable function that the planner leaves alone, so that a decision row's trace is parsed into
   * jsonb for every row replayed, as it is for every row the service writes.
   */
  expression(value: string | Buffer | null): string {
    if (value === null) return "null";
    if (Buffer.isBuffer(value)) return `concat('\\x${value.toString("hex")}')`;
    const parts = this.parts(value);
    const [only] = parts;
    if (only === undefined) return "''";
    if ("variable" in only && parts.length === 1) return `((:${only.variable})::int8)::text`;
    return concatenated(parts);
  }

  /** The value cut into captured text and per-transaction variables. */
  parts(value: string): Part[] {
    const marks: Array<{ at: number; length: number; parts: Part[] }> = [];
    for (const m of value.matchAll(this.namePattern)) marks.push({ at: m.index, length: m[0].length, parts: [{ variable: NAME }] });
    for (const m of value.matchAll(this.walletPattern)) marks.push({ at: m.index, length: m[0].length, parts: [{ text: this.walletPrefix }, { variable: WALLET }] });
    for (const m of value.matchAll(ATOM)) {
      if (marks.some((k) => m.index < k.at + k.length && k.at < m.index + m[0].length)) continue;
      const parts = this.atom(m[0]);
      if (parts !== null) marks.push({ at: m.index, length: m[0].length, parts });
    }
    marks.sort((a, b) => a.at - b.at);
    const out: Part[] = [];
    let at = 0;
    for (const mark of marks) {
      if (mark.at > at) out.push({ text: value.slice(at, mark.at) });
      out.push(...mark.parts);
      at = mark.at + mark.length;
    }
    if (at < value.length) out.push({ text: value.slice(at) });
    return mergeText(out);
  }

  /** The parts standing for a UUID or hash-like atom, or null when it is the same in every capture. */
  private atom(atom: string): Part[] | null {
    const known = this.atoms.get(atom);
    if (known) return known;
    const inB = this.input.sameWallet.includes(atom);
    if (inB && this.input.otherWallet.includes(atom)) return null;
    const of = inB ? WALLET : NAME;
    const k = this.atoms.size + 1;
    const digits = atom.length === 36 && atom.includes("-") ? [8, 4, 4, 4, 12] : /^[0-9a-f]{64}$/.test(atom) ? [18, 18, 18, 10] : null;
    const parts: Part[] = [];
    if (digits === null) {
      parts.push({ variable: this.hashed(`cs_a${k}`, of, k * 10) });
    } else {
      digits.forEach((d, j) => {
        if (j > 0 && atom.includes("-")) parts.push({ text: "-" });
        parts.push({ variable: this.hashed(`cs_a${k}_${j}`, of, k * 10 + j, d) });
      });
    }
    this.atoms.set(atom, parts);
    return parts;
  }

  private hashed(name: string, of: string, seed: number, digits?: number): string {
    this.vars.push({ name, kind: "hash", of, seed, ...(digits ? { digits } : {}) });
    return name;
  }
}

function mergeText(parts: Part[]): Part[] {
  const out: Part[] = [];
  for (const p of parts) {
    const last = out[out.length - 1];
    if ("text" in p && last && "text" in last) last.text += p.text;
    else out.push({ ...p });
  }
  return out;
}

/** concat() takes at most 100 arguments. */
const CONCAT_ARGUMENTS = 90;

/**
 * Captured text, with variables in it or not, built by the server in one call: concat() over the
 * text's pieces (constants, folded once by the prepared statement) and the variables. A chain of
 * `||` copies the growing string at every step, and format() reads its template a character at a
 * time: for the decision's arguments (~5 KB, ~50 variables) each cost the server about 1.6 and
 * 1.4 times what concat() does (callgrind) — work the service, which sends finished values, never
 * makes it do.
 */
function concatenated(parts: Part[]): string {
  const args = parts.map((p) => ("variable" in p ? `(:${p.variable})::int8` : literal(p.text)));
  const calls: string[] = [];
  for (let i = 0; i < args.length; i += CONCAT_ARGUMENTS) calls.push(`concat(${args.slice(i, i + CONCAT_ARGUMENTS).join(", ")})`);
  return calls.length === 1 ? calls[0]! : `(${calls.join(" || ")})`;
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

/** A literal's body as written between its quotes (E'' strings double their backslashes). */
function quoteBody(text: string, escaped: boolean): string {
  const quoted = text.replaceAll("'", "''");
  return escaped ? quoted.replaceAll("\\", "\\\\") : quoted;
}

/**
 * Rewrites each string literal of a statement's text ('...' or E'...', an E staying in front)
 * that `change`, given its decoded body, replaces (quotes included); null keeps it.
 */
function mapLiterals(text: string, change: (body: string, escaped: boolean) => string | null): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') {
      const end = text.indexOf('"', i + 1);
      const stop = end < 0 ? text.length : end + 1;
      out += text.slice(i, stop);
      i = stop;
      continue;
    }
    if (ch !== "'") {
      out += ch;
      i++;
      continue;
    }
    const escaped = /[Ee]$/.test(out) && !/[A-Za-z0-9_][Ee]$/.test(out);
    let j = i + 1;
    let body = "";
    for (; j < text.length; j++) {
      const c = text[j]!;
      if (escaped && c === "\\") {
        body += text[j + 1] ?? "";
        j++;
      } else if (c === "'" && text[j + 1] === "'") {
        body += "'";
        j++;
      } else if (c === "'") break;
      else body += c;
    }
    const replaced = change(body, escaped);
    out += replaced ?? text.slice(i, j + 1);
    i = j + 1;
  }
  return out;
}

/** The statement's own string literals, with their colons as chr(58) (not E'' strings: kysely writes none). */
function withoutColonsInLiterals(text: string): string {
  return mapLiterals(text, (body, escaped) => (!escaped && body.includes(":") ? literal(body) : null));
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
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      out += " ";
      if (quote === "E" && ch === "\\") {
        out += " ";
        i++;
      } else if (ch === (quote === "E" ? "'" : quote)) quote = null;
    } else if (ch === "'" || ch === '"') {
      quote = ch === "'" && /[Ee]$/.test(text.slice(0, i)) && !/[A-Za-z0-9_][Ee]$/.test(text.slice(0, i)) ? "E" : ch;
      out += " ";
    } else out += ch;
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
