/**
 * Properties over bodies generated from the custody API's OpenAPI `v2Transaction` schema (and the
 * reference shape), run in process through the webhook's own parse → facts → evaluate. Each body
 * is checked against every property at once, so generating it is paid once:
 * - parseTransaction never throws;
 * - a body is signed only where the policy allows the transfers the oracle (support/oracle.ts)
 *   reads from it and nothing in it moves value or grants authority beyond them — for a permissive
 *   policy (synced address book and none) and for the example policy.
 * Liveness: plain transfers are signed, so the properties cannot pass by refusing everything.
 */
import { describe, expect, it } from "vitest";
import { generatedBody, plainBody, plainForExamplePolicy } from "../../support/property/bodies.js";
import { examplePolicyAllows, permissiveAllows, read } from "../../support/property/oracle.js";
import { decideInProcess, signed } from "../../support/property/pipeline.js";
import { exampleBundle, permissiveBundle } from "../../support/property/policies.js";
import { check, counted, LIVENESS_RUNS, PROPERTY_TEST_TIMEOUT_MS } from "../../support/property/run.js";
import { assertSignedOnlyWhatTheOracleAllows } from "../../support/property/signed-only.js";
import { addressBookView } from "../../support/property/world.js";

const permissive = permissiveBundle();
const example = exampleBundle();
const view = addressBookView();

describe("bodies generated from the OpenAPI v2Transaction schema", { timeout: PROPERTY_TEST_TIMEOUT_MS }, () => {
  it(counted("never a crash; signed only what the permissive and the example policy allow and the body shows"), () => {
    check(generatedBody, (body) => {
      assertSignedOnlyWhatTheOracleAllows(body, { permissive, example, view });
    });
  });

  it(counted("liveness: plain transfers of at most 100 are signed by the permissive policy", LIVENESS_RUNS), () => {
    check(
      plainBody,
      (body) => {
        expect(permissiveAllows(read(body, view))).toBeNull();
        const result = decideInProcess(permissive, body, view);
        expect(signed(result), JSON.stringify({ body, result })).toBe(true);
      },
      LIVENESS_RUNS,
    );
  });

  it(counted("liveness: plain listed transfers to trusted destinations are signed by the example policy", LIVENESS_RUNS), () => {
    check(
      plainForExamplePolicy,
      (body) => {
        expect(examplePolicyAllows(read(body, view), view)).toBeNull();
        const result = decideInProcess(example, body, view);
        expect(signed(result), JSON.stringify({ body, result })).toBe(true);
      },
      LIVENESS_RUNS,
    );
  });
});
