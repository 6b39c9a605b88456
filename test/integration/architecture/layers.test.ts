/**
 * The layers of src/ as .dependency-cruiser.cjs states them (docs/ARCHITECTURE.md#layers): src/
 * breaks none of its rules, and each rule fires on a tiny tree that breaks it
 * (test/fixtures/layers/).
 */
import path from "node:path";
import { cruise, type ICruiseResult, type IViolation } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const FIXTURE = path.join(ROOT, "test/fixtures/layers");

async function cruiseFrom(baseDir: string): Promise<ICruiseResult> {
  const options = await extractDepcruiseOptions(path.join(ROOT, ".dependency-cruiser.cjs"));
  const tsConfig = extractTSConfig(path.join(ROOT, "tsconfig.json"));
  const result = await cruise(["src"], { ...options, baseDir }, undefined, { tsConfig });
  return result.output as ICruiseResult;
}

const counted = (v: IViolation) => v.rule.severity === "error" || v.rule.severity === "warn";
const named = (violations: IViolation[], rule: string) => violations.filter((v) => v.rule.name === rule).map((v) => `${v.from} -> ${v.to}`);

describe("the layers of src/", () => {
  it("src/ breaks no rule: no cycle, a pure core, src/http/ imported only by the wiring, src/db/ knowing no feature", async () => {
    const result = await cruiseFrom(ROOT);
    expect(result.summary.violations.filter(counted).map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
    expect(result.summary.error).toBe(0);
    expect(result.summary.totalCruised).toBeGreaterThan(200);
  }, 120_000);

  it("each rule fires on a tree that breaks it, and the wiring may import src/http/", async () => {
    const { summary } = await cruiseFrom(FIXTURE);
    const violations = summary.violations;
    expect(named(violations, "core-does-no-io")).toEqual(["src/core/price.ts -> fs"]);
    expect(named(violations, "core-imports-only-core")).toEqual(["src/core/price.ts -> src/http/route.ts"]);
    expect(named(violations, "http-only-from-wiring")).toEqual(["src/core/price.ts -> src/http/route.ts"]);
    expect(named(violations, "db-knows-no-feature")).toEqual(["src/db/rows.ts -> src/velocity/limit.ts"]);
    expect(named(violations, "no-circular")).toEqual(["src/velocity/count.ts -> src/velocity/limit.ts"]);
    expect(named(violations, "no-circular-folders").sort()).toEqual(["src/audit -> src/review", "src/review -> src/audit"]);
    expect(named(violations, "chains-own-their-codecs")).toEqual([expect.stringMatching(/^src\/review\/account\.ts -> .*node_modules\/@scure\/base\//)]);
    expect(named(violations, "chain-families-through-the-registry")).toEqual(["src/review/account.ts -> src/core/chains/xrpl/account.ts"]);
    expect(named(violations, "no-orphans")).toEqual(["src/audit/unused.ts -> src/audit/unused.ts"]);
    expect(named(violations, "no-dev-dependencies")).toEqual([expect.stringMatching(/^src\/http\/route\.ts -> .*node_modules\/vitest\//)]);
  }, 120_000);
});
