/**
 * Loading a policy bundle (docs/interface.md section 3): read every file, parse the policy, check its
 * shape and every rule's JSON-logic, and digest the files. All problems are collected, so one
 * run of `countersign policy check` shows everything to fix.
 */
import type { z } from "zod";
import { parseDuration } from "../duration.js";
import { type Result, err, ok } from "../core/errors.js";
import { type BundleFile, type FileProblem, type ReadOptions, readBundleFiles, readBundleFilesSync } from "./bundle-files.js";
import { type PolicyDocument, duplicateProblems, isRecord, policySchema } from "./bundle-schema.js";
import { bundleDigest } from "./digest.js";
import { type PathSegment, formatPath } from "../core/policy/json-path.js";
import { BundleLoadError, type BundleProblem } from "./load-error.js";
import { parsePolicyDocument } from "./policy-document.js";
import type { PolicyBundle, WindowSpec } from "../core/policy/types.js";
import { FACTS_SHAPE } from "../core/facts/shape.js";
import { validateLogic } from "../core/policy/validate-logic.js";
import { toReviewerGroups, toRuleReview } from "../review/policy-schema.js";

export { BundleLoadError, type BundleProblem } from "./load-error.js";

const POLICY_FILES = ["policy.yaml", "policy.yml", "policy.json"];

/** `options.root`: where the bundle's symbolic links may lead (bundle-files.ts). */
export async function loadBundle(dir: string, options: ReadOptions = {}): Promise<Result<PolicyBundle, BundleLoadError>> {
  const read = await readBundleFiles(dir, options);
  return bundleFromFiles(dir, read.files, read.problems);
}

/** The same as loadBundle, for the command line where blocking is fine. */
export function loadBundleSync(dir: string, options: ReadOptions = {}): Result<PolicyBundle, BundleLoadError> {
  const read = readBundleFilesSync(dir, options);
  return bundleFromFiles(dir, read.files, read.problems);
}

/** Builds a bundle from files already read (canonical order), e.g. an in-memory bundle in tests. */
export function bundleFromFiles(dir: string, files: readonly BundleFile[], fileProblems: readonly FileProblem[] = []): Result<PolicyBundle, BundleLoadError> {
  const problems: BundleProblem[] = fileProblems.map((p) => ({ file: p.file, message: p.message }));
  const candidates = files.filter((f) => POLICY_FILES.includes(f.path));
  const policyFile = candidates[0];
  if (candidates.length > 1) {
    problems.push({ file: ".", message: `found ${candidates.map((f) => f.path).join(" and ")}; a bundle has exactly one policy file` });
  } else if (!policyFile) {
    problems.push({ file: ".", message: "no policy.yaml, policy.yml or policy.json in the bundle" });
  }
  if (problems.length > 0 || !policyFile) return err(new BundleLoadError(dir, problems));

  const compiled = compileSafely(policyFile);
  if (!compiled.ok) return err(new BundleLoadError(dir, compiled.error));
  const bundle: PolicyBundle = { ...compiled.value, digest: bundleDigest(files), directory: dir };
  return ok(deepFreeze(bundle));
}

type CompiledPolicy = Omit<PolicyBundle, "digest" | "directory">;

/** Even a pathological document (nesting deep enough to overflow the stack) is a problem, not a crash. */
function compileSafely(file: BundleFile): Result<CompiledPolicy, BundleProblem[]> {
  try {
    return compilePolicy(file);
  } catch (error) {
    return err([{ file: file.path, message: `cannot be processed: ${error instanceof Error ? error.message : String(error)}` }]);
  }
}

function compilePolicy(file: BundleFile): Result<CompiledPolicy, BundleProblem[]> {
  const parsed = parsePolicyDocument(file.path, file.bytes);
  const raw = parsed.value;
  const problem = (path: PathSegment[] | undefined, message: string): BundleProblem =>
    withRule(raw, { file: file.path, ...(path ? { path: formatPath(path) } : {}), message }, path);

  const problems = parsed.problems.map((p) => problem(p.path, p.message));
  if (raw === undefined) return err(problems);

  const result = policySchema.safeParse(raw, { error: (issue) => (issue.input === undefined ? "required" : undefined) });
  if (!result.success) problems.push(...result.error.issues.flatMap((issue) => issueProblems(issue).map((p) => problem(p.path, p.message))));
  problems.push(...duplicateProblems(raw).map((p) => problem(p.path, p.message)));
  const windows = result.success ? toWindows(result.data) : undefined;
  problems.push(...whenProblems(raw, windows).map((p) => ({ ...withRule(raw, { file: file.path, message: p.message }, p.at), path: p.path })));

  if (problems.length > 0 || !result.success || !windows) return err(problems);
  return ok(toPolicy(result.data, windows));
}

function issueProblems(issue: z.core.$ZodIssue): { path: PathSegment[]; message: string }[] {
  const path = issue.path.filter((s): s is PathSegment => typeof s !== "symbol");
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => ({ path: [...path, key], message: `unknown key ${JSON.stringify(key)}` }));
  }
  return [{ path, message: issue.message }];
}

/** Validates every rule's `when` from the raw document, so it is checked even if other parts fail. */
function whenProblems(raw: unknown, windows: WindowSpec[] | undefined): { at: PathSegment[]; path: string; message: string }[] {
  const rules = isRecord(raw) && Array.isArray(raw.rules) ? (raw.rules as unknown[]) : [];
  return rules.flatMap((rule, i) => {
    if (!isRecord(rule) || !("when" in rule)) return [];
    const at: PathSegment[] = ["rules", i, "when"];
    return validateLogic(rule.when, { path: formatPath(at), facts: FACTS_SHAPE, condition: true, ...(windows ? { windows } : {}) }).map((p) => ({ at, ...p }));
  });
}

function withRule(raw: unknown, problem: BundleProblem, path: PathSegment[] | undefined): BundleProblem {
  if (!path || path[0] !== "rules" || typeof path[1] !== "number" || !isRecord(raw) || !Array.isArray(raw.rules)) return problem;
  const rule: unknown = raw.rules[path[1]];
  const id = isRecord(rule) && typeof rule.id === "string" ? rule.id : `#${path[1]}`;
  return { ...problem, rule: id };
}

function toWindows(doc: PolicyDocument): WindowSpec[] {
  return doc.windows.map((w) => ({
    name: w.name,
    duration: w.duration,
    durationSeconds: parseDuration(w.duration) ?? 0, // the schema already refused anything else
    groupBy: [...w.groupBy],
    measure: w.measure,
  }));
}

function toPolicy(doc: PolicyDocument, windows: WindowSpec[]): CompiledPolicy {
  return {
    version: doc.version,
    description: doc.description ?? null,
    default: doc.default,
    windows,
    reviewers: toReviewerGroups(doc.reviewers),
    rules: doc.rules.map((r) => {
      const review = toRuleReview(r.review);
      return { id: r.id, decision: r.decision, reason: r.reason ?? null, when: r.when, ...(review ? { review } : {}) };
    }),
  };
}

/** A loaded bundle is shared by every request; freezing it means no code path can alter a rule. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
