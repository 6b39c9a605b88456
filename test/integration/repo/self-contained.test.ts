/**
 * The repository alone passes its tests: no test, script or source file reads a path outside it,
 * and what was vendored from the platform still matches the checksum noted beside it.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { outsidePaths, outsidePathsIn, scannedFiles } from "../../support/outside-paths.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");
// These two spell out the paths that are refused: the examples below, and the checkout roots.
const SPELLING_OUT = [import.meta.filename, path.join(ROOT, "test/support/outside-paths.ts")];

describe("the repository reads nothing outside itself", () => {
  it("walks src/, test/, scripts/, bench/, bin/ and .ci/", () => {
    const folders = new Set(scannedFiles(ROOT).map((file) => path.relative(ROOT, file).split(path.sep)[0]));
    expect([...folders].sort()).toEqual([".ci", "bench", "bin", "scripts", "src", "test"]);
  });

  it("finds no path that reaches outside the repository", () => {
    expect(outsidePathsIn(ROOT, SPELLING_OUT)).toEqual([]);
  });

  const at = (relative: string, text: string) => outsidePaths(ROOT, path.join(ROOT, relative), text).map((p) => p.text);

  it("finds a folder beside the checkout, by a climbing path, an absolute path or the environment", () => {
    expect(at("test/support/x.ts", `const REPO = "."; path.resolve(REPO, "../shared/reference/api.json");`)).toEqual(["../shared/reference/api.json"]);
    expect(at("test/support/x.ts", `path.resolve(import.meta.dirname, "../../../shared/api.json");`)).toEqual(["../../../shared/api.json"]);
    expect(at("test/x.ts", `readFileSync(new URL(\`../../shared/\${name}.json\`, import.meta.url));`)).toEqual(["../../shared/"]);
    expect(at("test/x.ts", `import api from "../../shared/api.json";`)).toEqual(["../../shared/api.json"]);
    expect(at("test/x.ts", `readFileSync("/work/shared/examples/transactions/a.json");`)).toEqual(["/work/shared/examples/transactions/a.json"]);
    expect(at("test/x.ts", `readFileSync(\`${path.dirname(ROOT)}/shared/a.json\`);`)).toEqual([`${path.dirname(ROOT)}/shared/a.json`]);
    expect(at("test/x.ts", `const dir = process.env.COUNTERSIGN_SHARED_DIR ?? process.env["COUNTERSIGN_SHARED_DIR"];`)).toEqual([
      "COUNTERSIGN_SHARED_DIR",
      "COUNTERSIGN_SHARED_DIR",
    ]);
    expect(at(".ci/run", `cp ../shared/reference/api.json test/\nls "$COUNTERSIGN_SHARED_DIR"`)).toEqual(["../shared/reference/api.json", "COUNTERSIGN_SHARED_DIR"]);
  });

  it("accepts paths inside the repository, a folder's parent and a link's target", () => {
    expect(at("test/deploy/x.ts", `path.resolve(import.meta.dirname, "../../helm/countersign"); import { a } from "../support/a.js";`)).toEqual([]);
    expect(at("src/db/x.ts", `new URL("../../migrations", import.meta.url); path.join(pgdata, "..", "marker");`)).toEqual([]);
    expect(at("src/policy/x.test.ts", `await symlink("../../shared/common.yaml", link); request("/v1/decisions");`)).toEqual([]);
    expect(at(".ci/run", `cd "$(dirname "$0")/.."\nnpm test # ../shared is not read`)).toEqual([]);
  });
});

describe("vendored files match the checksum noted beside them", () => {
  const noted = (readme: string): [string, string][] => {
    const text = readFileSync(path.join(ROOT, readme), "utf8");
    return [...text.matchAll(/([0-9a-f]{64})\s+(\S+\.json)/g)].map((m) => [m[2]!, m[1]!]);
  };
  const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

  it.each([
    ["test/fixtures/custody-api-v2/README.md", 1],
    ["src/core/transaction/__fixtures__/README.md", 6],
  ])("%s", (readme, count) => {
    const entries = noted(readme);
    expect(entries).toHaveLength(count);
    for (const [file, digest] of entries) expect(sha256(path.join(ROOT, path.dirname(readme), file)), file).toBe(digest);
  });
});
