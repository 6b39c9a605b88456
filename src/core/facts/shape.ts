/**
 * The shape of the facts document (docs/interface.md section 4), for the bundle loader to refuse a `var`
 * path that names no fact. A misspelt path (`transfer.destination.adress`) reads null, and
 * `in`, `===` and `some` on null are simply false, so a deny rule written with it would never
 * match and never err. Each object's fields are typed against its interface in ./types.ts, so
 * adding or renaming a fact without updating this shape does not compile.
 */
import type { ReviewFacts } from "../review/types.js";
import type { Authorization, Fee, Memo, TokenAllowance } from "../transaction/types.js";
import type { AddressBookEntryFacts, AddressBookFacts, DestinationFacts, EndpointFacts, Facts, TransferFacts, TxFacts } from "./types.js";

/** What a single fact holds when it is not null: a rule comparing it with a literal of another type never matches. */
export type ValueType = "string" | "number" | "boolean";

type ValueShape<T extends ValueType> = { readonly kind: "value"; readonly type: T };
type ObjectShape = { readonly kind: "object"; readonly fields: Readonly<Record<string, FactShape>> };
type ListShape = { readonly kind: "list"; readonly items: FactShape };
/** Checked elsewhere (velocity: against the bundle's windows), or not known here. */
type OpenShape = { readonly kind: "open" };

export type FactShape = ValueShape<ValueType> | ObjectShape | ListShape | OpenShape;

/**
 * The shape a field of type V must have: a value's type is its TypeScript type, null aside, so a
 * fact declared text here is text in every document the builder writes (this does not compile
 * otherwise).
 */
type ShapeOf<V> = [NonNullable<V>] extends [string]
  ? ValueShape<"string">
  : [NonNullable<V>] extends [number]
    ? ValueShape<"number">
    : [NonNullable<V>] extends [boolean]
      ? ValueShape<"boolean">
      : [NonNullable<V>] extends [readonly unknown[]]
        ? ListShape
        : ObjectShape | OpenShape;

const text: ValueShape<"string"> = { kind: "value", type: "string" };
const num: ValueShape<"number"> = { kind: "value", type: "number" };
const flag: ValueShape<"boolean"> = { kind: "value", type: "boolean" };
const open: OpenShape = { kind: "open" };
const list = (items: FactShape): ListShape => ({ kind: "list", items });
const object = <T>(fields: { readonly [K in keyof T]-?: ShapeOf<T[K]> }): ObjectShape => ({ kind: "object", fields });

const endpointFields: { [K in keyof EndpointFacts]-?: ShapeOf<EndpointFacts[K]> } = {
  value: text,
  kind: text,
  wallet: text,
  address: text,
  internal: flag,
  muxedId: text,
  baseAccount: text,
};

const tx = object<TxFacts>({
  name: text,
  vault: text,
  id: text,
  kind: text,
  type: text,
  subType: text,
  state: text,
  network: text,
  note: text,
  externalId: text,
  requestId: text,
  initiator: text,
  designatedSigners: list(text),
  transferCount: num,
  payloads: list(text),
  tokenAllowances: list(object<TokenAllowance>({ approver: text, spender: text, asset: text, amount: text })),
  authorizations: list(object<Authorization>({ signer: text, contractAddress: text, chainId: text, nonce: text })),
  memo: object<Memo>({ type: text, data: text }),
  fee: object<Fee>({ asset: text, amount: text }),
  usd: text,
  feeUsd: text,
});

const transfer = object<TransferFacts>({
  index: num,
  network: text,
  asset: text,
  assetAsGiven: text,
  assetStandard: text,
  amount: text,
  rawAmount: text,
  assetTotal: text,
  usdPrice: text,
  usd: text,
  source: object<EndpointFacts>(endpointFields),
  destination: object<DestinationFacts>({
    ...endpointFields,
    inAddressBook: flag,
    addressBook: object<AddressBookEntryFacts>({ name: text, displayName: text, address: text, network: text, signed: flag }),
  }),
  sponsor: text,
});

export const FACTS_SHAPE: FactShape = object<Facts>({
  now: text,
  nowHour: num,
  nowWeekday: num,
  tx,
  transfer,
  velocity: open,
  addressBook: object<AddressBookFacts>({ configured: flag, syncedAt: text, ageSeconds: num }),
  review: object<ReviewFacts>({ state: text, approvals: num, approvers: list(text) }),
});

/** What a `var` path reads, or a description of where it leaves the facts. */
export type PathReading = { shape: FactShape } | { unknown: string };

const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

/** Follows `path` (dot-separated, as `var` reads it) from `shape`, which `origin` names in a miss. */
export function readFactPath(shape: FactShape, path: string, origin = "the facts"): PathReading {
  let at = shape;
  const walked: string[] = [];
  for (const segment of path.split(".")) {
    const next = child(at, segment);
    if (next === undefined) return { unknown: describeMiss(at, walked.length === 0 ? origin : walked.join(".")) };
    at = next;
    walked.push(segment);
  }
  return { shape: at };
}

function child(shape: FactShape, segment: string): FactShape | undefined {
  switch (shape.kind) {
    case "open":
      return open;
    case "value":
      return undefined;
    case "list":
      return ARRAY_INDEX.test(segment) ? shape.items : undefined;
    case "object":
      return Object.hasOwn(shape.fields, segment) ? shape.fields[segment] : undefined;
  }
}

function describeMiss(shape: FactShape, where: string): string {
  if (shape.kind === "object") return `${where} has ${Object.keys(shape.fields).join(", ")}`;
  if (shape.kind === "list") return `${where} is a list: read an item by its index, or use some/all/none/filter/map`;
  return `${where} is a single value`;
}
