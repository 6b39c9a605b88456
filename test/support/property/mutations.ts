/**
 * Mutations of valid bodies (the examples in policies/tests/transactions and src/core/transaction/__fixtures__, and
 * generated plain transfers): fields added, removed and altered anywhere, kinds swapped, amounts
 * and raw amounts changed, payloads added, sources contradicted, bodies wrapped and unwrapped.
 */
import fc from "fast-check";
import { address, amount, api, asset, payload, plainBody, plainStellarApi } from "./bodies.js";
import { exampleBodies } from "./example-bodies.js";
import * as w from "./world.js";

type Json = unknown;
type Path = (string | number)[];
export type Mutation = (body: Json) => Json;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every path to a value inside `value` (the root excluded). */
export function pathsOf(value: Json, prefix: Path = [], out: Path[] = []): Path[] {
  if (Array.isArray(value)) value.forEach((v, i) => (out.push([...prefix, i]), pathsOf(v, [...prefix, i], out)));
  else if (isRecord(value))
    for (const [k, v] of Object.entries(value)) {
      out.push([...prefix, k]);
      pathsOf(v, [...prefix, k], out);
    }
  return out;
}

function parentOf(root: Json, path: Path): Record<string, unknown> | unknown[] | null {
  let node: Json = root;
  for (const key of path.slice(0, -1)) {
    node = (node as Record<string | number, unknown>)[key];
    if (typeof node !== "object" || node === null) return null;
  }
  return node as Record<string, unknown> | unknown[];
}

function setAt(root: Json, path: Path, value: Json): void {
  const parent = parentOf(root, path);
  if (parent !== null) (parent as Record<string | number, unknown>)[path[path.length - 1]!] = value;
}

function deleteAt(root: Json, path: Path): void {
  const parent = parentOf(root, path);
  const key = path[path.length - 1]!;
  if (Array.isArray(parent) && typeof key === "number") parent.splice(key, 1);
  else if (parent !== null) delete (parent as Record<string, unknown>)[key as string];
}

const pick = <T>(list: readonly T[], n: number): T | undefined => (list.length === 0 ? undefined : list[n % list.length]);

/** The transaction object inside a body (unwrapped), for mutations that address its fields. */
const txOf = (body: Json): Record<string, unknown> | null => (isRecord(body) ? (isRecord(body.transaction) && !("name" in body) ? body.transaction : body) : null);

const AMOUNT_KEYS = new Set(["amount", "rawAmount", "value", "startingBalance", "limit", "callValue", "voteCount", "sentAmount"]);

const FIELD_NAMES = [
  ...api.properties("v2Transaction"),
  ...api.properties("TransactionTransfer"),
  "details",
  "assetTransfer",
  "assetBatchTransfer",
  "rawAmount",
  "sourceWallet",
  "sponsor",
  "operations",
  "authorizationList",
  "spenderAddress",
];

const anyValue: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  amount,
  address,
  asset,
  fc.constantFrom<Json>(null, {}, [], "", w.HOT, "assets/", `${w.VAULT}/wallets/`, true, 1e21, "TRANSACTION", "MESSAGE"),
);

/** Scales a decimal string by 10^k exactly (k may be negative). */
export function scale(value: string, k: number): string {
  const [whole = "0", frac = ""] = value.split(".");
  const digits = `${whole}${frac}`;
  const point = whole.length + k;
  const padded = point > digits.length ? digits.padEnd(point, "0") : point < 1 ? `${"0".repeat(1 - point)}${digits}` : digits;
  const at = Math.max(point, 1);
  const out = `${padded.slice(0, at).replace(/^0+(?=\d)/, "")}.${padded.slice(at)}`.replace(/\.?0*$/, "");
  return out === "" ? "0" : out;
}

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  // Alter any value.
  fc.tuple(fc.nat(), anyValue).map(([n, value]): Mutation => (body) => {
    const path = pick(pathsOf(body), n);
    if (path) setAt(body, path, value);
    return body;
  }),
  // Remove any field or list item.
  fc.nat().map((n): Mutation => (body) => {
    const path = pick(pathsOf(body), n);
    if (path) deleteAt(body, path);
    return body;
  }),
  // Add a field, known to the schema or not, to any object.
  fc.tuple(fc.nat(), fc.constantFrom(...FIELD_NAMES), anyValue).map(([n, key, value]): Mutation => (body) => {
    const objects = [[] as Path, ...pathsOf(body)].filter((p) => isRecord(p.length === 0 ? body : parentOf(body, [...p, "x"])));
    const path = pick(objects, n);
    if (path) setAt(body, [...path, key], value);
    return body;
  }),
  // A payload beside the transfers.
  payload.map(([key, value]): Mutation => (body) => {
    const tx = txOf(body);
    if (tx) tx[key] = value;
    return body;
  }),
  // Change an amount by orders of magnitude, or to something that is not a plain decimal.
  fc.tuple(fc.nat(), fc.integer({ min: -8, max: 24 }), fc.option(amount, { freq: 4 })).map(([n, k, replacement]): Mutation => (body) => {
    const paths = pathsOf(body).filter((p) => AMOUNT_KEYS.has(String(p[p.length - 1])));
    const path = pick(paths, n);
    if (!path) return body;
    const current = parentOf(body, path) as Record<string | number, unknown>;
    const old = current[path[path.length - 1]!];
    setAt(body, path, replacement ?? (typeof old === "string" && /^[0-9]+(\.[0-9]+)?$/.test(old) ? scale(old, k) : old));
    return body;
  }),
  // A raw amount beside a transfer's amount, agreeing or not.
  fc.tuple(fc.nat(), fc.integer({ min: 0, max: 30 })).map(([n, d]): Mutation => (body) => {
    const tx = txOf(body);
    const transfers = Array.isArray(tx?.transfers) ? tx.transfers : [];
    const t = pick(transfers, n);
    if (isRecord(t) && typeof t.amount === "string" && /^[0-9]+(\.[0-9]+)?$/.test(t.amount)) t.rawAmount = scale(t.amount, d).split(".")[0];
    return body;
  }),
  // Swap the kind markers.
  fc.tuple(api.property("v2Transaction", "subType"), api.property("v2Transaction", "type"), fc.nat(5)).map(([subType, type, n]): Mutation => (body) => {
    const tx = txOf(body);
    if (!tx) return body;
    if (n === 0) tx.type = type;
    else if (n === 1) tx.evmAccountDelegation = { contractAddress: { value: w.OUTSIDER_EVM } };
    else if (n === 2) tx.stellarTransaction = {};
    else if (n === 3 && Array.isArray(tx.transfers)) tx.details = { assetTransfer: { asset: w.USDC_ETH, amount: "1", source: w.HOT, destination: w.BOOK_EVM } };
    else tx.subType = subType;
    return body;
  }),
  // Contradict or reshape the source.
  fc
    .tuple(fc.constantFrom<Json>(w.COLD, "wallets/cold0001", "wallets/7a8b9c0d1e2f", `${w.OTHER_VAULT}/wallets/w1`, w.COLD_EVM, w.OUTSIDER_EVM, ""), fc.nat(2))
    .map(([source, n]): Mutation => (body) => {
      const tx = txOf(body);
      if (!tx) return body;
      if (n === 0) tx.request = { ...(isRecord(tx.request) ? tx.request : {}), sourceWallet: source };
      else if (n === 1 && Array.isArray(tx.transfers) && isRecord(tx.transfers[0])) tx.transfers[0].sourceAddress = { value: source };
      else if (isRecord(tx.details) && isRecord(tx.details.assetTransfer)) tx.details.assetTransfer.source = source;
      return body;
    }),
  // Duplicate a transfer or an operation.
  fc.nat().map((n): Mutation => (body) => {
    const lists = pathsOf(body).filter((p) => ["transfers", "operations", "destinations"].includes(String(p[p.length - 1])));
    const path = pick(lists, n);
    const list = path ? (parentOf(body, path) as Record<string | number, unknown>)[path[path.length - 1]!] : undefined;
    if (Array.isArray(list) && list.length > 0) list.push(structuredClone(list[n % list.length]));
    return body;
  }),
  // Wrap, wrap with a second name, or unwrap.
  fc.nat(2).map((n): Mutation => (body) => {
    if (isRecord(body) && isRecord(body.transaction) && !("name" in body)) return body.transaction;
    return n === 0 ? { transaction: body, name: `${w.VAULT}/transactions/other` } : { transaction: body };
  }),
);

/** The starting points: every example body, and generated plain transfers. */
export const validBody: fc.Arbitrary<Json> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...exampleBodies().map((e) => e.body)).map((b) => structuredClone(b)) },
  { weight: 2, arbitrary: plainBody },
  { weight: 1, arbitrary: plainStellarApi },
);

export const mutatedBody: fc.Arbitrary<Json> = fc
  .tuple(validBody, fc.array(mutation, { minLength: 1, maxLength: 3 }))
  .map(([body, mutations]) => mutations.reduce((b, m) => m(b), structuredClone(body)));
