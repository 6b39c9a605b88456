/**
 * Walks a transaction object field by field against the classification table
 * (field-classes.ts): which payloads it carries, and its content without delivery metadata (what
 * the content digest covers). A field no entry covers is a payload named by its path.
 */
import { fieldEntry, isContainer } from "./field-classes.js";
import { isRecord } from "./transfer.js";

export interface FieldScan {
  /** Payload names found, distinct (unsorted). */
  payloads: Set<string>;
  /** The object without metadata fields, objects as `{"{}": [[key, value], ...]}` with sorted keys: stable JSON for the digest. */
  content: unknown;
}

const OMIT = Symbol("omit");

/** Keys that would make a path ambiguous (`"evmTransaction.fee"` as one key) are never classified. */
const PLAIN_KEY = /^[A-Za-z0-9_$-]+$/;

export function scanFields(snapshot: Record<string, unknown>): FieldScan {
  const payloads = new Set<string>();
  const content = walk(snapshot, "", payloads);
  return { payloads, content: content === OMIT ? null : content };
}

/** Absent: null, undefined or an empty list (protobuf JSON may write unset fields so). */
export const isPresent = (value: unknown): boolean => value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0);

function walk(value: unknown, path: string, payloads: Set<string>): unknown {
  if (value === null || value === undefined) return null;
  const entry = path === "" ? undefined : fieldEntry(path);
  if (entry !== undefined) {
    if (entry.class === "metadata") return OMIT;
    if (entry.class === "payload" && isPresent(value)) payloads.add(entry.payload ?? path);
    return canonical(value);
  }
  const descend = path === "" || isContainer(path);
  if (descend && Array.isArray(value)) return value.map((item) => orNull(walk(item, `${path}[]`, payloads)));
  if (descend && isRecord(value)) {
    const pairs: [string, unknown][] = [];
    for (const key of Object.keys(value).sort()) {
      const childPath = path === "" ? key : `${path}.${key}`;
      const child = PLAIN_KEY.test(key) ? walk(value[key], childPath, payloads) : unclassified(value[key], `${path}[${JSON.stringify(key)}]`, payloads);
      if (child !== OMIT) pairs.push([key, child]);
    }
    return { "{}": pairs };
  }
  return unclassified(value, path, payloads);
}

function unclassified(value: unknown, path: string, payloads: Set<string>): unknown {
  if (isPresent(value)) payloads.add(path);
  return canonical(value);
}

const orNull = (value: unknown): unknown => (value === OMIT ? null : value);

/**
 * JSON with object keys sorted, so key order in a redelivery does not make it "different". An
 * object becomes `{"{}": [[key, value], ...]}`, which no array and no other object can mimic.
 */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object") return value ?? null;
  const record = value as Record<string, unknown>;
  return {
    "{}": Object.keys(record)
      .sort()
      .map((k) => [k, canonical(record[k])]),
  };
}
