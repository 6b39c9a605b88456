/**
 * Static validation of a rule's `when` at load time: only known operations, one operation per
 * object, literal `var` paths that cannot reach the prototype chain, sane argument counts, (when
 * windows are given) `velocity.<window>.<field>` paths that exist, and (when the facts' shape is
 * given) `var` paths that name a fact — inside some/all/none/filter/map/reduce over a list of
 * facts, paths into its items — and no equality or `in` between such a fact and a literal of
 * another type, which can never hold; and no arithmetic result read as a condition or compared
 * strictly (arithmetic-results.ts), where its exact decimal text would not mean what JsonLogic says.
 */
import { SUB_ACCOUNTS, hasSubAccounts, networklessAssetName } from "../chains/canonical.js";
import { subAccountsNamedIn } from "../chains/sub-accounts.js";
import { type FactShape, type ValueType, readFactPath } from "../facts/shape.js";
import { STRICT_COMPARISONS, arithmeticResult, conditionMessage, readsTruth, strictComparisonMessage } from "./arithmetic-results.js";
import { isNumericLike } from "./decimal.js";
import { type PathSegment, formatPath } from "./json-path.js";
import { ARITY, FORBIDDEN_OPERATIONS, FORBIDDEN_SEGMENTS, KNOWN_OPERATIONS, SCOPED_OPERATIONS } from "./logic-ops.js";
import { listItems } from "./string-lists.js";
import type { WindowSpec } from "./types.js";

export interface LogicProblem {
  /** Where, e.g. `rules[2].when.and[1]["<="][0].var`. */
  path: string;
  message: string;
}

export interface ValidateLogicOptions {
  /** Path of the expression itself, prefixed to every problem path (e.g. `rules[2].when`). */
  path?: string;
  /** Declared windows; when given, `velocity.*` paths are checked against them. */
  windows?: readonly Pick<WindowSpec, "name" | "measure">[];
  /** The document `var` reads (src/core/facts/shape.ts); when given, every path must name a part of it. */
  facts?: FactShape;
  /** The expression is read as true or false (a rule's `when`), not for its value. */
  condition?: boolean;
}

/** Where `var` reads: the facts (`root`), or the element of a scoped operation; `shape` null when unknown. */
interface Scope {
  root: boolean;
  shape: FactShape | null;
  /** How a problem names the scope's own level: "the facts", "each item of tx.payloads". */
  origin: string;
}

const UNKNOWN_ELEMENT: Scope = { root: false, shape: null, origin: "" };

const WINDOW_FIELDS: Record<string, "any" | "amount" | "usd"> = { count: "any", countAfter: "any", amount: "amount", amountAfter: "amount", usd: "usd", usdAfter: "usd" };

class Validator {
  readonly problems: LogicProblem[] = [];
  constructor(private readonly options: ValidateLogicOptions) {}

  report(at: readonly PathSegment[], message: string): void {
    this.problems.push({ path: formatPath(at, this.options.path ?? ""), message });
  }

  visit(node: unknown, at: PathSegment[], scope: Scope): void {
    if (Array.isArray(node)) {
      node.forEach((item, i) => this.visit(item, [...at, i], scope));
      return;
    }
    if (typeof node === "string") return this.checkLiteralText(node, at);
    if (typeof node !== "object" || node === null) return;
    const keys = Object.keys(node);
    if (keys.length !== 1) {
      this.report(
        at,
        keys.length === 0
          ? "an empty object is not an operation"
          : `an operation object must have exactly one key, found ${keys.length}: ${keys.map((k) => JSON.stringify(k)).join(", ")}`,
      );
      return;
    }
    const op = keys[0] as string;
    const forbidden = FORBIDDEN_OPERATIONS.get(op);
    if (forbidden !== undefined) return this.report([...at, op], forbidden);
    if (!KNOWN_OPERATIONS.has(op)) return this.report([...at, op], `unknown operation ${JSON.stringify(op)}`);
    this.visitOperation(op, (node as Record<string, unknown>)[op], [...at, op], scope);
  }

  visitOperation(op: string, raw: unknown, at: PathSegment[], scope: Scope): void {
    const isList = Array.isArray(raw);
    const args: unknown[] = isList ? raw : [raw];
    const argPath = (i: number): PathSegment[] => (isList ? [...at, i] : at);
    const arity = ARITY.get(op);
    if (arity && (args.length < arity[0] || args.length > arity[1])) {
      this.report(at, `${JSON.stringify(op)} takes ${describeArity(arity)} arguments, found ${args.length}`);
    }
    args.forEach((arg, i) => {
      if (isConditionList(op, i, args.length, arg)) {
        this.report(argPath(i), 'a list of conditions here is read as always true (json-logic: a non-empty list is truthy); join them in one operation, {"and": [...]}');
      }
      if (readsTruth(op, i, args.length)) this.checkCondition(arg, argPath(i));
      if (op === "var" && i === 0) this.checkVarPath(arg, argPath(0), scope);
      else if (op === "missing" || (op === "missing_some" && i === 1)) this.checkMissingKeys(arg, argPath(i), scope);
      else this.visit(arg, argPath(i), SCOPED_OPERATIONS.has(op) && i === 1 ? elementScope(op, args[0], scope) : scope);
    });
    if (EQUALITIES.has(op) && args.length === 2) this.checkLiteralTypes(op, args, argPath, scope);
    if (STRICT_COMPARISONS.has(op)) this.checkStrictOperands(op, args, argPath);
  }

  /** An arithmetic result read as true or false: its decimal text is true even when it is "0". */
  checkCondition(expr: unknown, at: PathSegment[]): void {
    const found = arithmeticResult(expr);
    if (found !== null) this.report([...at, ...found.at], conditionMessage(found));
  }

  /** An arithmetic result compared by `===`, `!==` or `in` (as a needle, a haystack or a listed item): its decimal text never equals a number. */
  checkStrictOperands(op: string, args: unknown[], argPath: (i: number) => PathSegment[]): void {
    const listed = op === "in" && Array.isArray(args[1]) ? args[1].map((item: unknown, i: number) => ({ item, at: [...argPath(1), i] })) : [];
    for (const { item, at } of [...args.map((item, i) => ({ item, at: argPath(i) })), ...listed]) {
      const found = arithmeticResult(item);
      if (found !== null) this.report([...at, ...found.at], strictComparisonMessage(op, found));
    }
  }

  /**
   * A fact compared with a literal of another type: `===` and `in` compare types first, so
   * `{"===": [{"var": "transfer.destination.muxedId"}, 12345]}` (the id is text) is never true and
   * a deny rule written so never denies, silently: YAML reads an unquoted 12345 as a number. `==`
   * reads numeric text as a number, so there only a boolean, or text that is not a number against
   * a number, can never be equal.
   */
  checkLiteralTypes(op: string, args: unknown[], argPath: (i: number) => PathSegment[], scope: Scope): void {
    const [left, right] = args;
    if (op === "in" && this.checkWholeListNeedle(left, argPath(0), scope)) return;
    if (op === "in" && this.checkBuiltList(left, right, argPath(1))) return;
    if (op === "in" && typeof right === "string") return this.checkStringList(left, right, argPath(1), scope);
    if (op === "in" && (typeof left === "number" || typeof left === "boolean")) this.checkNonTextInText(left, right, argPath(0), scope);
    const pairs: ComparedLiteral[] =
      op === "in"
        ? inPairs(left, right, argPath)
        : [
            { path: plainVarPath(left), literal: right, at: argPath(1) },
            { path: plainVarPath(right), literal: left, at: argPath(0) },
          ];
    for (const { path, literal, at } of pairs) {
      if (scope.root && path !== null && typeof literal === "string") this.checkSpellingCompared(op, path, literal, at);
      const type = path === null ? null : valueTypeAt(scope, path);
      if (path === null || type === null || !isPrimitive(literal) || !neverEqual(op, type, literal)) continue;
      const fix = rewritten(type, literal);
      this.report(
        at,
        `${JSON.stringify(op)} compares ${path || "each item"}, which is ${TYPE_NAMES[type]}, with ${describeLiteral(literal)}: ${op === "!=" || op === "!==" ? "they always differ" : "they are never equal"}${fix === null ? "" : ` (write ${fix})`}`,
      );
    }
  }

  /**
   * A fact looked for in a list written as one string (string-lists.ts): its items are text, so a
   * number or true/false fact is never one of them. json-logic-js found the hour 1 in "9, 10, 11" as a
   * digit of "10"; read as a list, an allow rule so written would never match and a deny rule never
   * deny, silently.
   */
  checkStringList(needle: unknown, list: string, at: PathSegment[], scope: Scope): void {
    const path = plainVarPath(needle);
    if (scope.root && path !== null) listItems(list).forEach((item) => this.checkSpellingCompared("in", path, item, at));
    const type = path === null ? null : valueTypeAt(scope, path);
    if (path === null || type === null || type === "string") return;
    const items = listItems(list).map((item) =>
      type === "number" && isNumericLike(item) ? Number(item) : type === "boolean" && (item === "true" || item === "false") ? item === "true" : null,
    );
    const fix = items.every((item) => item !== null) ? ` (write ${JSON.stringify(items).replaceAll(",", ", ")})` : "";
    this.report(at, `"in" looks for ${path || "each item"}, which is ${TYPE_NAMES[type]}, among the items of ${describeLiteral(list)}, which are text: they are never equal${fix}`);
  }

  /**
   * A list built as text (`{"in": [fact, {"cat": ["0.0.12345, ", "treasury.near"]}]}`): only a
   * string written in the rule is read as a list of items (string-lists.ts); text a rule computes is
   * searched as text, so an allowlist so written let in any part of an item (`0.0.1234`), as lists
   * written as one string did. A literal looked for in
   * it is a substring search on purpose, as in text read from the facts. Such text chosen by `if`,
   * `?:`, `or` or `and` is searched the same way (`{"if": [true, {"cat": [...]}, []]}` loaded and let 0.0.1234 in).
   */
  checkBuiltList(needle: unknown, haystack: unknown, at: PathSegment[]): boolean {
    const builder = typeof needle === "string" ? null : textBuilder(haystack);
    if (builder === null) return false;
    this.report(at, `"in" looks for a value in text built by ${builder}, which is searched as text, so a part of an item is found in it: write the list as an array`);
    return true;
  }

  /**
   * A list or an object of facts looked for as one item (`{"in": [{"var": "tx.designatedSigners"},
   * ["users/…"]]}`): `in` compares it with each item as a whole, so it is never found and a deny rule
   * written so signed what it names. Its items are looked for with `some`.
   */
  checkWholeListNeedle(needle: unknown, at: PathSegment[], scope: Scope): boolean {
    const path = plainVarPath(needle);
    const shape = path === null ? null : shapeAt(scope, path);
    if (path === null || shape === null || (shape.kind !== "list" && shape.kind !== "object")) return false;
    const named = path || "each item";
    const fix =
      shape.kind === "list"
        ? `to find any of its items, write {"some": [{"var": "${path}"}, {"in": [{"var": ""}, …]}]}`
        : `read one of its fields (${Object.keys(shape.fields).join(", ")})`;
    this.report(at, `"in" looks for ${named}, which is ${shape.kind === "list" ? "a list" : "an object"}, as one item: it is never found (${fix})`);
    return true;
  }

  /**
   * A literal that plain equality with the fact would miss in payments the rule means. An account
   * with sub-accounts against an endpoint's `address` or `value`: a payment to one of its
   * sub-accounts reaches those as the sub-account's own address, so a deny rule so written would let
   * it through; `baseAccount` is the account every such payment lands in. An asset that names no
   * network against `transfer.asset`, which names every asset with its network.
   */
  checkSpellingCompared(op: string, path: string, literal: string, at: PathSegment[]): void {
    const endpoint = ENDPOINT_ACCOUNT.exec(path);
    if (endpoint !== null && hasSubAccounts(literal)) {
      this.report(
        at,
        `${JSON.stringify(op)} compares ${path} with ${literal}, ${SUB_ACCOUNTS} that a payment to one of them would not equal: compare transfer.${endpoint[1]}.baseAccount, and pin a sub-account with transfer.${endpoint[1]}.muxedId`,
      );
    }
    const named = path === "transfer.asset" ? networklessAssetName(literal) : null;
    if (named !== null) {
      this.report(
        at,
        `${JSON.stringify(op)} compares transfer.asset with ${JSON.stringify(literal)}, which names no network: transfer.asset names an asset with its network, write ${named} (or the testnet's)`,
      );
    }
  }

  /** A number or true/false looked for in a text fact: membership.ts looks only for text in text (json-logic-js found 1 as a digit). */
  checkNonTextInText(needle: number | boolean, haystack: unknown, at: PathSegment[], scope: Scope): void {
    const path = plainVarPath(haystack);
    if (path === null || valueTypeAt(scope, path) !== "string") return;
    this.report(at, `"in" looks for ${describeLiteral(needle)} in ${path || "each item"}, which is text: it is never found (write ${JSON.stringify(String(needle))})`);
  }

  /**
   * A sub-account's address (a Stellar muxed `M…`, an XRP X-address with a tag) written in a rule.
   * One sub-account is its account (`baseAccount`) and its id (`muxedId`): the rule names both, so
   * that it reads the same whichever spelling the platform sends the sub-account in.
   */
  checkLiteralText(text: string, at: PathSegment[]): void {
    const named = subAccountsNamedIn(text);
    // The first of each kind: an X-address's message names the tag, a muxed address's the sub-account.
    for (const kind of new Set(named.map((n) => n.kind))) {
      const first = named.find((n) => n.kind === kind)!;
      const what = kind.startsWith("an XRP") ? "the tag" : "the sub-account";
      this.report(
        at,
        `${kind} (${first.address.slice(0, 8)}…) cannot be named in a rule: name its account with {"===": [{"var": "transfer.destination.baseAccount"}, "${first.account}"]} and pin ${what} with {"===": [{"var": "transfer.destination.muxedId"}, "${first.id}"]}`,
      );
    }
  }

  checkVarPath(path: unknown, at: PathSegment[], scope: Scope): void {
    if (path === null || path === undefined || path === "") return;
    if (typeof path === "number") {
      if (!Number.isSafeInteger(path) || path < 0) this.report(at, `"var" index must be a non-negative integer, found ${path}`);
      else this.checkFactPath(String(path), at, scope);
      return;
    }
    if (typeof path !== "string") {
      this.report(at, '"var" path must be a literal string or number (computed paths are not allowed)');
      return;
    }
    const segments = path.split(".");
    const bad = segments.find((s) => FORBIDDEN_SEGMENTS.has(s));
    if (bad !== undefined) return this.report(at, `"var" path ${JSON.stringify(path)} goes through ${JSON.stringify(bad)}, which is not allowed`);
    if (scope.root && segments[0] === "velocity") this.checkVelocityPath(segments, path, at);
    this.checkFactPath(path, at, scope);
  }

  checkFactPath(path: string, at: PathSegment[], scope: Scope): void {
    if (scope.shape === null) return;
    const reading = readFactPath(scope.shape, path, scope.origin);
    if ("unknown" in reading) this.report(at, `"var" path ${JSON.stringify(path)} names no fact: ${reading.unknown}`);
  }

  /** `missing` / `missing_some` keys are var paths too; literal ones are checked, others validated as logic. */
  checkMissingKeys(arg: unknown, at: PathSegment[], scope: Scope): void {
    if (typeof arg === "string" || typeof arg === "number") return this.checkVarPath(arg, at, scope);
    if (Array.isArray(arg) && arg.every((k) => typeof k === "string" || typeof k === "number")) {
      arg.forEach((key, i) => this.checkVarPath(key, [...at, i], scope));
      return;
    }
    this.visit(arg, at, scope);
  }

  checkVelocityPath(segments: string[], path: string, at: PathSegment[]): void {
    const windows = this.options.windows;
    if (windows === undefined || segments.length < 2) return;
    const window = windows.find((w) => w.name === segments[1]);
    if (!window) return this.report(at, `"var" path ${JSON.stringify(path)} names no declared window`);
    const field = segments[2];
    if (field === undefined) return;
    const kind = WINDOW_FIELDS[field];
    if (kind === undefined || !Object.hasOwn(WINDOW_FIELDS, field) || segments.length > 3) {
      return this.report(at, `"var" path ${JSON.stringify(path)}: a window has count, countAfter, and amount and amountAfter (measure amount) or usd and usdAfter (measure usd)`);
    }
    if (kind !== "any" && window.measure !== kind) {
      this.report(at, `"var" path ${JSON.stringify(path)}: window ${JSON.stringify(window.name)} measures ${window.measure}, it has no ${field}`);
    }
  }
}

/** Operations that compute text (json-logic-js's `cat`, `substr`). */
const TEXT_BUILDERS: ReadonlySet<string> = new Set(["cat", "substr"]);

/** Operations whose result is one of their arguments: `if`, `?:` (a branch), `or`, `and` (any). */
const PASSING_OPERATIONS: ReadonlySet<string> = new Set(["if", "?:", "or", "and"]);

/** The operation (`cat`, `substr`) that builds the text `expr` may be, itself or as a result a PASSING_OPERATIONS returns; else null. */
function textBuilder(expr: unknown): string | null {
  if (isOperation(expr, TEXT_BUILDERS)) return Object.keys(expr)[0]!;
  if (!isOperation(expr, PASSING_OPERATIONS)) return null;
  const [op, raw] = Object.entries(expr)[0]!;
  const args = Array.isArray(raw) ? raw : [raw];
  const chosen = op === "if" || op === "?:" ? args.filter((_, i) => i % 2 === 1 || (i === args.length - 1 && args.length % 2 === 1)) : args;
  for (const arg of chosen) {
    const builder = textBuilder(arg);
    if (builder !== null) return builder;
  }
  return null;
}

/** Whether `expr` is one operation of `ops` (`{"cat": [...]}`). */
function isOperation(expr: unknown, ops: ReadonlySet<string>): expr is Record<string, unknown> {
  if (typeof expr !== "object" || expr === null || Array.isArray(expr)) return false;
  const keys = Object.keys(expr);
  return keys.length === 1 && ops.has(keys[0]!);
}

/** An endpoint's fact that holds an account as the transfer names it (not its base account). */
const ENDPOINT_ACCOUNT = /^transfer\.(source|destination)\.(?:address|value)$/;

/** The operations checkLiteralTypes looks at. */
const EQUALITIES: ReadonlySet<string> = new Set(["===", "!==", "==", "!=", "in"]);

const TYPE_NAMES: Record<ValueType, string> = { string: "text", number: "a number", boolean: "true or false" };

type Primitive = string | number | boolean;
const isPrimitive = (value: unknown): value is Primitive => typeof value === "string" || typeof value === "number" || typeof value === "boolean";

/** A fact (by its `var` path, null when the operand is not one) and the literal it is compared with. */
interface ComparedLiteral {
  path: string | null;
  literal: unknown;
  at: PathSegment[];
}

/**
 * `in`'s pairs: a fact looked for in a literal list (with each item), or a literal looked for in a
 * list of facts (with its items, path `list.0`). A list written as one string is checkStringList's.
 */
function inPairs(needle: unknown, haystack: unknown, argPath: (i: number) => PathSegment[]): ComparedLiteral[] {
  if (Array.isArray(haystack)) return haystack.map((item: unknown, i: number) => ({ path: plainVarPath(needle), literal: item, at: [...argPath(1), i] }));
  const list = plainVarPath(haystack);
  return [{ path: list === null ? null : list === "" ? "0" : `${list}.0`, literal: needle, at: argPath(0) }];
}

/** The path of `{"var": path}` with no default (or a null one): a default of another type could make the comparison hold. */
function plainVarPath(expr: unknown): string | null {
  if (typeof expr !== "object" || expr === null || Array.isArray(expr) || Object.keys(expr).length !== 1 || !("var" in expr)) return null;
  const raw = expr.var;
  const [path, fallback] = Array.isArray(raw) ? (raw as unknown[]) : [raw];
  if (fallback !== undefined && fallback !== null) return null;
  return typeof path === "string" ? path : typeof path === "number" ? String(path) : null;
}

/** The shape of what a path reads in a scope, or null when it is not known. */
function shapeAt(scope: Scope, path: string): FactShape | null {
  if (scope.shape === null) return null;
  const reading = path === "" ? { shape: scope.shape } : readFactPath(scope.shape, path);
  return "shape" in reading ? reading.shape : null;
}

/** The type of the single value a path reads in a scope, or null when it is not one or not known. */
function valueTypeAt(scope: Scope, path: string): ValueType | null {
  const shape = shapeAt(scope, path);
  return shape !== null && shape.kind === "value" ? shape.type : null;
}

/** Whether `op` between a fact of `type` (not null) and `literal` can never hold (src/core/policy/decimal-ops.ts, membership.ts). */
function neverEqual(op: string, type: ValueType, literal: Primitive): boolean {
  const literalType = typeof literal as ValueType;
  if (op === "===" || op === "!==" || op === "in") return literalType !== type;
  if (type === "boolean" || literalType === "boolean") return literalType !== type;
  return type === "number" && !isNumericLike(literal);
}

/** The literal as the fact's type would write it, when there is such a spelling. */
function rewritten(type: ValueType, literal: Primitive): string | null {
  if (type === "string") return JSON.stringify(String(literal));
  if (type === "number") return isNumericLike(literal) ? String(literal) : null;
  return literal === "true" || literal === "false" ? literal : null;
}

function describeLiteral(literal: Primitive): string {
  if (typeof literal === "string") return `the text ${JSON.stringify(literal.length > 40 ? `${literal.slice(0, 40)}…` : literal)}`;
  return typeof literal === "number" ? `the number ${literal}` : `${literal}`;
}

/** Operations whose arguments (or, for `if`, whose conditions; for a scoped one, its predicate) are read for their truth. */
const CONDITION_OPERATIONS: ReadonlySet<string> = new Set(["and", "or", "!", "!!", "if", "?:", "all", "none", "some", "filter"]);

/**
 * Whether argument `i` of `op` is a list holding an operation where a condition goes: a list of
 * conditions written without `and`, which is truthy whatever its conditions say. A list of plain
 * values stays allowed (`{"or": [{"var": "x"}, []]}` is a default).
 */
function isConditionList(op: string, i: number, count: number, arg: unknown): boolean {
  if (!CONDITION_OPERATIONS.has(op) || !Array.isArray(arg)) return false;
  if (!arg.some((item) => typeof item === "object" && item !== null)) return false;
  if (op === "if" || op === "?:") return i % 2 === 0 && i < count - 1;
  if (SCOPED_OPERATIONS.has(op)) return i === 1;
  return true;
}

/**
 * What `var` reads inside a scoped operation: the items of the list its first argument reads, when
 * that is a literal path to a list of facts, or a `filter` of one (`reduce`: `current` is the
 * item), else unknown.
 */
function elementScope(op: string, source: unknown, scope: Scope): Scope {
  const list = scope.shape === null ? null : factList(source, scope.shape);
  if (list === null) return UNKNOWN_ELEMENT;
  const origin = `each item of ${list.path}`;
  if (op !== "reduce") return { root: false, shape: list.items, origin };
  return { root: false, shape: { kind: "object", fields: { current: list.items, accumulator: { kind: "open" } } }, origin: `reduce over ${list.path}` };
}

/** The list of facts an expression reads: `{"var": path}` to one, or a `filter` of such an expression. */
function factList(expr: unknown, shape: FactShape): { path: string; items: FactShape } | null {
  if (typeof expr !== "object" || expr === null || Array.isArray(expr) || Object.keys(expr).length !== 1) return null;
  const [op, raw] = Object.entries(expr as Record<string, unknown>)[0]!;
  if (op === "filter") return Array.isArray(raw) ? factList(raw[0], shape) : null;
  const path = op !== "var" ? undefined : Array.isArray(raw) ? (raw[0] as unknown) : raw;
  if (typeof path !== "string") return null;
  const reading = readFactPath(shape, path);
  return "shape" in reading && reading.shape.kind === "list" ? { path, items: reading.shape.items } : null;
}

function describeArity([min, max]: readonly [number, number]): string {
  if (min === max) return String(min);
  return max === Infinity ? `at least ${min}` : `${min} to ${max}`;
}

/** Every problem in a JSON-logic expression; empty when it is safe to evaluate. */
export function validateLogic(expr: unknown, options: ValidateLogicOptions = {}): LogicProblem[] {
  const validator = new Validator(options);
  if (options.condition) validator.checkCondition(expr, []);
  validator.visit(expr, [], { root: true, shape: options.facts ?? null, origin: "the facts" });
  return validator.problems;
}
