/** Why a policy bundle was refused: every problem found, each naming file, rule and path. */

export interface BundleProblem {
  /** Path relative to the bundle directory (`policy.yaml`, `tests/x.yaml`), or `.` for the directory. */
  file: string;
  /** The id of the rule concerned, when there is one. */
  rule?: string;
  /** Where in the document, e.g. `rules[2].when.and[1]["<="][0].var`. */
  path?: string;
  message: string;
}

export class BundleLoadError extends Error {
  readonly code = "POLICY_BUNDLE_INVALID" as const;

  constructor(
    readonly directory: string,
    readonly problems: readonly BundleProblem[],
  ) {
    super(formatProblems(directory, problems));
    this.name = "BundleLoadError";
  }
}

export function formatProblem(problem: BundleProblem): string {
  const where = [problem.file];
  if (problem.rule !== undefined) where.push(`rule ${JSON.stringify(problem.rule)}`);
  if (problem.path !== undefined) where.push(`at ${problem.path}`);
  return `${where.join(", ")}: ${problem.message}`;
}

function formatProblems(directory: string, problems: readonly BundleProblem[]): string {
  const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
  return [`policy bundle ${directory} is invalid (${count}):`, ...problems.map((p) => `  - ${formatProblem(p)}`)].join("\n");
}
