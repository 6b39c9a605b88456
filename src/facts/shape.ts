/**
 * The shape of the facts document (CONTRACT.md section 4), for the bundle loader to refuse a `var`
 * path that names no fact. A misspelt path (`transfer.destination.adress`) reads null, and
 * `in`, `===` and `some` on null are simply false, so a deny rule written with it would never
 * match and never err. Each object's fields are typed against its interface in ./types.ts, so
 * adding or renaming a fact without updating this shape does not compile.
 */
import type { ReviewFacts } from "../review/types.js";
import type { Authorization, Fee, Memo, TokenAllowance } from "../transaction/types.js";
import type { AddressBookEntryFacts, AddressBookFacts, DestinationFacts, EndpointFacts, Facts, TransferFacts, TxFacts } from "./types.js";

export type FactShape =
  | { readonly kind: "value" }
  | { readonly kind: "object"; readonly fields: Readonly<Record<string, FactShape>> }
  | { readonly kind: "list"; readonly items: FactShape }
  /** Checked elsewhere (velocity: against the bundle's windows), or not known here. */
  | { readonly kind: "open" };

const value: FactShape = { kind: "value" };
const open: FactShape = { kind: "open" };
const list = (items: FactShape): FactShape => ({ kind: "list", items });
const object = <T>(fields: { readonly [K in keyof T]-?: FactShape }): FactShape => ({ kind: "object", fields });

const endpointFields: { [K in keyof EndpointFacts]-?: FactShape } = { value, kind: value, wallet: value, address: value, internal: value, muxedId: value };

const tx = object<TxFacts>({
  name: value, vault: value, id: value, kind: value, type: value, subType: value, state: value, network: value,
  note: value, externalId: value, requestId: value, initiator: value, designatedSigners: list(value), transferCount: value,
  payloads: list(value),
  tokenAllowances: list(object<TokenAllowance>({ approver: value, spender: value, asset: value, amount: value })),
  authorizations: list(object<Authorization>({ signer: value, contractAddress: value, chainId: value, nonce: value })),
  memo: object<Memo>({ type: value, data: value }),
  fee: object<Fee>({ asset: value, amount: value }),
});

const transfer = object<TransferFacts>({
  index: value, network: value, asset: value, assetStandard: value, amount: value, rawAmount: value, assetTotal: value,
  source: object<EndpointFacts>(endpointFields),
  destination: object<DestinationFacts>({
    ...endpointFields,
    inAddressBook: value,
    addressBook: object<AddressBookEntryFacts>({ name: value, displayName: value, address: value, network: value, signed: value }),
  }),
  sponsor: value,
});

export const FACTS_SHAPE: FactShape = object<Facts>({
  now: value, nowHour: value, nowWeekday: value,
  tx,
  transfer,
  velocity: open,
  addressBook: object<AddressBookFacts>({ configured: value, syncedAt: value, ageSeconds: value }),
  review: object<ReviewFacts>({ state: value, approvals: value, approvers: list(value) }),
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
