/**
 * The shape of policy.yaml (docs/interface.md section 3) as strict zod schemas: unknown keys are refused
 * at every level, so a misspelt key (`decison: allow`) is an error rather than a silently ignored line.
 */
import { z } from "zod";
import { MAX_POLICY_DURATION_DAYS, isPolicyDuration } from "../duration.js";
import { reviewersSchema, reviewProblems, ruleReviewSchema } from "../review/policy-schema.js";
import type { GroupDimension } from "../core/policy/types.js";

export const GROUP_DIMENSIONS = ["vault", "sourceWallet", "destination", "asset", "network", "initiator"] as const satisfies readonly GroupDimension[];

const WINDOW_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Rule ids appear in traces, reasons and test expectations: keep them one plain token. */
const RULE_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
/** No control characters: the version is recorded on every decision and printed in logs. */
const PRINTABLE = /^[^\p{Cc}]+$/u;

const noDuplicates = <T>(items: readonly T[]): boolean => new Set(items).size === items.length;

const windowSchema = z
  .strictObject({
    name: z.string().regex(WINDOW_NAME, "a window name is a letter or _ followed by letters, digits or _"),
    duration: z.string().refine(isPolicyDuration, `a duration is a positive whole number with a unit s, m, h or d (e.g. 24h), at most ${MAX_POLICY_DURATION_DAYS}d`),
    groupBy: z
      .array(z.enum(GROUP_DIMENSIONS, `groupBy entries are ${GROUP_DIMENSIONS.join(", ")}`))
      .min(1, "groupBy needs at least one of " + GROUP_DIMENSIONS.join(", "))
      .refine(noDuplicates, "groupBy lists a dimension twice"),
    measure: z.enum(["amount", "count", "usd"], "measure is amount, usd or count").default("amount"),
  })
  .superRefine((window, ctx) => {
    if (window.measure === "amount" && !window.groupBy.includes("asset")) {
      ctx.addIssue({
        code: "custom",
        path: ["groupBy"],
        message: "a window measuring amount must be grouped by asset (amounts of different assets do not add up); use measure: usd or count, or add asset",
      });
    }
  });

/**
 * A `when` is one operation, or `true`/`false`. Anything else is a mistake json-logic would not
 * report: an empty `when:` (null) never matches; a list — conditions written one per line with
 * `and:` forgotten — and a string — JSON-logic pasted in quotes — are truthy whatever they hold, so
 * an allow rule written so would allow everything.
 */
function whenShapeProblem(when: unknown): string | null {
  if (when === null) return "when is empty; write a JSON-logic expression (or true to always match)";
  if (when === undefined || typeof when === "boolean") return null; // a missing one is reported as required
  if (Array.isArray(when)) return 'when is a list, which json-logic reads as always true; join its conditions in one operation, {"and": [...]}';
  if (typeof when === "string") return "when is a string, which json-logic reads as a constant; write the expression itself, not quoted";
  if (typeof when !== "object") return `when is a constant ${JSON.stringify(when)}; write a JSON-logic operation (or true to always match)`;
  return null;
}

const ruleSchema = z.strictObject({
  id: z.string().regex(RULE_ID, "a rule id is 1-128 letters, digits, _ . : or -, starting with a letter or digit"),
  decision: z.enum(["allow", "deny", "defer"], "decision is allow, deny or defer"),
  reason: z.string().min(1, "reason, when given, must not be empty").optional(),
  review: ruleReviewSchema.optional(),
  when: z.unknown().superRefine((when, ctx) => {
    const problem = whenShapeProblem(when);
    if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
  }),
});

export const policySchema = z
  .strictObject({
    version: z
      .string({ error: (issue) => (issue.input === undefined ? "required" : "version must be a string (quote it)") })
      .min(1, "version must not be empty")
      .max(200)
      .regex(PRINTABLE, "version must not hold control characters"),
    description: z.string().optional(),
    default: z.enum(["deny", "defer"], {
      error: (issue) =>
        issue.input === "allow" ? "default: allow is not accepted; a policy falls back to deny or defer, and allows only through allow rules" : "default is deny or defer",
    }),
    windows: z.array(windowSchema).default([]),
    reviewers: reviewersSchema.optional(),
    rules: z.array(ruleSchema),
  })
  .superRefine((doc, ctx) => {
    for (const p of reviewProblems(doc)) ctx.addIssue({ code: "custom", path: p.path, message: p.message });
  });

export type PolicyDocument = z.output<typeof policySchema>;

/** Duplicates are found on the raw document, so they are reported even when other parts fail the schema. */
export function duplicateProblems(raw: unknown): { path: (string | number)[]; message: string }[] {
  const doc = isRecord(raw) ? raw : {};
  return [...duplicatesIn(doc.windows, "windows", "name", "window name"), ...duplicatesIn(doc.rules, "rules", "id", "rule id")];
}

function duplicatesIn(list: unknown, listName: string, key: string, what: string): { path: (string | number)[]; message: string }[] {
  if (!Array.isArray(list)) return [];
  const seen = new Map<string, number>();
  const problems: { path: (string | number)[]; message: string }[] = [];
  list.forEach((item: unknown, i) => {
    const value = isRecord(item) ? item[key] : undefined;
    if (typeof value !== "string") return;
    const first = seen.get(value);
    if (first === undefined) seen.set(value, i);
    else problems.push({ path: [listName, i, key], message: `duplicate ${what} ${JSON.stringify(value)} (first at ${listName}[${first}])` });
  });
  return problems;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
