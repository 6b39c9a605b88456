/** The example bundle's own policy tests (policies/tests), one vitest case each. */
import { describe, expect, it } from "vitest";
import { runPolicyTests } from "../../../src/policy/check.js";
import { loadBundleSync } from "../../../src/policy/load.js";
import { EXAMPLE_POLICIES } from "../../support/service.js";

const loaded = loadBundleSync(EXAMPLE_POLICIES);

describe("policies/ (the example bundle)", () => {
  it("loads", () => {
    expect(loaded.ok ? null : loaded.error.message).toBeNull();
  });

  it("passes every case in policies/tests", async () => {
    if (!loaded.ok) throw loaded.error;
    const results = await runPolicyTests(loaded.value);
    expect(results.length).toBeGreaterThan(10);
    expect(results.filter((r) => !r.passed).map((r) => `${r.file}: ${r.name}: ${r.failures.join("; ")}`)).toEqual([]);
  });
});
