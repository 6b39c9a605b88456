/**
 * The two bundles the properties run: a permissive one that allows only transfer kinds with every
 * transfer at most 100 (the attacker policy), and the project's example policy.
 */
import type { PolicyBundle } from "../../../src/core/policy/types.js";
import { loadBundleSync } from "../../../src/policy/load.js";
import { EXAMPLE_POLICIES, writeBundle } from "../service.js";

const TRANSFER_KINDS = '{"in": [{"var": "tx.kind"}, ["assetTransfer", "stellarTransaction"]]}';

export const PERMISSIVE_POLICY = `
version: "property-permissive-1"
default: deny
rules:
  - id: transfers-up-to-100
    decision: allow
    reason: a transfer of at most 100 whole units
    when: {"and": [${TRANSFER_KINDS}, {"<=": [{"var": "transfer.amount"}, "100"]}]}
  - id: sep41-up-to-100
    decision: allow
    reason: a SEP-41 payment of at most 100 × 10^7 smallest units
    when:
      and:
        - ${TRANSFER_KINDS}
        - {"==": [{"var": "transfer.assetStandard"}, "sep41"]}
        - {"!": {"var": "transfer.amount"}}
        - {"<=": [{"var": "transfer.rawAmount"}, "1000000000"]}
`;

function load(dir: string): PolicyBundle {
  const loaded = loadBundleSync(dir);
  if (!loaded.ok) throw new Error(`bundle ${dir} does not load: ${JSON.stringify(loaded.error)}`);
  return loaded.value;
}

export const permissiveDir = (): string => writeBundle(PERMISSIVE_POLICY);
export const permissiveBundle = (): PolicyBundle => load(permissiveDir());
export const exampleBundle = (): PolicyBundle => load(EXAMPLE_POLICIES);
