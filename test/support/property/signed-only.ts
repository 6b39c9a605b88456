/** Property (1) and (2) for one body, under each policy the suites run. */
import type { AddressBookView } from "../../../src/core/addressbook/types.js";
import type { PolicyBundle } from "../../../src/core/policy/types.js";
import { examplePolicyAllows, permissiveAllows, read } from "./oracle.js";
import { evaluateParsed, parse, signed, type InProcess } from "./pipeline.js";

export interface Setting {
  permissive: PolicyBundle;
  example: PolicyBundle;
  /** A synced address-book copy (the HTTP suite runs without sync). */
  view: AddressBookView;
}

export function assertSignedOnlyWhatTheOracleAllows(body: unknown, s: Setting): void {
  const runs: [string, PolicyBundle, AddressBookView, (v: AddressBookView) => string | null][] = [
    ["permissive policy, synced address book", s.permissive, s.view, (v) => permissiveAllows(read(body, v))],
    ["example policy", s.example, s.view, (v) => examplePolicyAllows(read(body, v), v)],
  ];
  // A throw of parseTransaction or of the facts propagates: a crash fails the property too.
  const parsed = parse(body);
  for (const [what, bundle, view, oracle] of runs) {
    const result = evaluateParsed(bundle, parsed, view);
    if (!signed(result)) continue;
    const why = oracle(view);
    if (why !== null) throw new Error(`${what}: signed, but ${why}\nfacts: ${factsOf(result)}`);
  }
}

function factsOf(result: InProcess): string {
  if (!("outcome" in result)) return "-";
  return JSON.stringify(result.outcome.facts.map((f) => ({ tx: { kind: f.tx.kind, ...("payloads" in f.tx ? { payloads: f.tx.payloads } : {}) }, transfer: f.transfer })));
}
