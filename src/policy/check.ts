/**
 * `countersign policy check`: the bundle's own tests (tests/*.yaml). Each case states a
 * transaction, the facts around it (time, address book, window totals before it) and the expected
 * decision; the case runs through the same facts builder and evaluation as the webhook.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import type { AddressBookView } from "../core/addressbook/types.js";
import { assess, planVelocity, situationOf, type Situation } from "../core/assess.js";
import type { WindowTotal, WindowTotals } from "../core/facts/types.js";
import { statedReviewFacts } from "../review/facts.js";
import { parseTransaction } from "../core/transaction/parse.js";
import type { Decision, Outcome, PolicyBundle } from "../core/policy/types.js";
import { offlineOutcome } from "../core/facts/pricing.js";
import { statedPrices, statedPricesSchema } from "./stated-prices.js";

const entry = z.strictObject({
  vault: z.string().regex(/^vaults\/[A-Za-z0-9_-]+$/),
  address: z.string().min(1),
  network: z
    .string()
    .min(1)
    .transform((n) => n.replace(/^networks\//, "")),
  displayName: z.string().optional(),
  name: z.string().optional(),
  signed: z.boolean().optional(),
});

const ownWallet = z.strictObject({
  vault: z.string().regex(/^vaults\/[A-Za-z0-9_-]+$/),
  wallet: z.string().regex(/^vaults\/[A-Za-z0-9_-]+\/wallets\/[A-Za-z0-9_-]+$/),
  address: z.string().min(1),
  network: z
    .string()
    .min(1)
    .transform((n) => n.replace(/^networks\//, "")),
});

const windowTotal = z.strictObject({
  amount: z
    .string()
    .regex(/^[0-9]+(\.[0-9]+)?$/)
    .default("0"),
  count: z.number().int().min(0).default(0),
  /** A `usd` window's dollars before this transaction. */
  usd: z
    .string()
    .regex(/^[0-9]+(\.[0-9]+)?$/)
    .default("0"),
});

const testCase = z
  .strictObject({
    name: z.string().min(1),
    now: z.iso.datetime({ offset: true }).optional(),
    addressBook: z.array(entry).optional(),
    ownWallets: z.array(ownWallet).optional(),
    velocity: z.record(z.string(), windowTotal).optional(),
    /** USD per whole unit by asset, standing for the platform's prices (docs/interface.md section 10). */
    prices: statedPricesSchema.optional(),
    /** Reviewer identities that approved this transaction's review (docs/interface.md section 9). */
    approvals: z.array(z.string().min(1)).optional(),
    transaction: z.unknown().optional(),
    transactionFile: z.string().optional(),
    expect: z.enum(["allow", "deny", "defer"]),
    expectRules: z.array(z.string()).optional(),
  })
  .refine((c) => (c.transaction === undefined) !== (c.transactionFile === undefined), {
    message: "exactly one of transaction or transactionFile is required",
  });

export const testFileSchema = z.strictObject({
  /** USD prices for every case of the file; a case's own `prices` add to them and win per asset. */
  prices: statedPricesSchema.optional(),
  cases: z.array(testCase).min(1),
});

export type PolicyTestCase = z.infer<typeof testCase>;

export interface CaseResult {
  file: string;
  name: string;
  passed: boolean;
  /** Why it failed; empty when it passed. */
  failures: string[];
  outcome?: Outcome;
}

const DEFAULT_NOW = "2026-01-01T12:00:00Z";

/** The files of tests/ (itself, not its subdirectories, which hold transaction bodies) that are test files. */
export const TEST_FILE = /\.(ya?ml|json)$/;

/** Runs every case of every tests/*.yaml|yml|json file of the bundle; a bundle without tests/ has none. */
export async function runPolicyTests(bundle: PolicyBundle): Promise<CaseResult[]> {
  const dir = path.join(bundle.directory, "tests");
  let files: string[];
  try {
    files = await readdir(dir);
  } catch (error) {
    // Only an absent directory means "no tests": an unreadable one must not pass as zero cases.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    return [fileFailure("tests", "(tests/ cannot be read)", error)];
  }
  const results: CaseResult[] = [];
  for (const file of files.filter((f) => TEST_FILE.test(f)).sort()) {
    results.push(...(await runTestFile(bundle, path.join(dir, file))));
  }
  return results;
}

export async function runTestFile(bundle: PolicyBundle, file: string): Promise<CaseResult[]> {
  const relative = path.relative(bundle.directory, file);
  let document: unknown;
  try {
    document = parseYaml(await readFile(file, "utf8"));
  } catch (error) {
    return [fileFailure(relative, "(file cannot be read as YAML or JSON)", error)];
  }
  const parsed = testFileSchema.safeParse(document);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "(file)"}: ${i.message}`);
    return [{ file: relative, name: "(file is not a valid policy test file)", passed: false, failures: problems }];
  }
  const results: CaseResult[] = [];
  const filePrices = parsed.data.prices;
  for (const c of parsed.data.cases) results.push(await runCase(bundle, file, relative, filePrices ? { ...c, prices: { ...filePrices, ...c.prices } } : c));
  return results;
}

/** A test file (or the tests directory) that could not be read, as one failed case: it counts. */
function fileFailure(file: string, name: string, error: unknown): CaseResult {
  return { file, name, passed: false, failures: [error instanceof Error ? error.message.split("\n")[0]! : String(error)] };
}

async function runCase(bundle: PolicyBundle, file: string, relative: string, c: PolicyTestCase): Promise<CaseResult> {
  let body: unknown = c.transaction;
  if (c.transactionFile) {
    try {
      body = JSON.parse(await readFile(path.resolve(path.dirname(file), c.transactionFile), "utf8"));
    } catch {
      return { file: relative, name: c.name, passed: false, failures: [`cannot read transactionFile ${c.transactionFile} as JSON`] };
    }
  }
  const parsed = parseTransaction(body);
  if (!parsed.ok) {
    return { file: relative, name: c.name, passed: false, failures: [`transaction is not valid: ${parsed.error.publicMessage}`] };
  }
  const unknown = unknownWindows(bundle, c);
  if (unknown.length > 0) {
    return { file: relative, name: c.name, passed: false, failures: [`velocity names windows the bundle does not declare: ${unknown.join(", ")}`] };
  }
  const now = new Date(c.now ?? DEFAULT_NOW);
  const prices = statedPrices(c.prices);
  const situation = situationOf(parsed.value, now, caseAddressBook(c, parsed.value.vault, now), prices);
  if (c.approvals) situation.review = statedReviewFacts(bundle, c.approvals, parsed.value.initiator);
  const outcome = offlineOutcome(bundle, prices, situation.transfers, assess(bundle, situation, caseTotals(bundle, situation, c)));
  const failures = compare(outcome, c.expect, c.expectRules);
  return { file: relative, name: c.name, passed: failures.length === 0, failures, outcome };
}

/** A case with an `addressBook` (or `ownWallets`) key runs with a freshly synced copy; without, sync is off. */
function caseAddressBook(c: PolicyTestCase, vault: string, now: Date): AddressBookView {
  const configured = c.addressBook !== undefined || c.ownWallets !== undefined;
  return {
    configured,
    vault,
    syncedAt: configured ? now : null,
    entries: (c.addressBook ?? [])
      .filter((e) => e.vault === vault)
      .map((e, i) => ({
        name: e.name ?? `${vault}/addressBookEntries/test-${i}`,
        displayName: e.displayName ?? null,
        address: e.address,
        network: e.network,
        signed: e.signed ?? true,
      })),
    ownAddresses: (c.ownWallets ?? []).filter((w) => w.vault === vault).map((w) => ({ wallet: w.wallet, walletAddress: null, address: w.address, network: w.network })),
  };
}

/** The case's `velocity` totals stand for every group the transaction's transfers fall in. */
function caseTotals(bundle: PolicyBundle, situation: Situation, c: PolicyTestCase): WindowTotals {
  const totals = new Map<string, Map<string, WindowTotal>>();
  for (const q of planVelocity(bundle, situation).queries) {
    const given = c.velocity?.[q.window];
    if (!given) continue;
    if (!totals.has(q.window)) totals.set(q.window, new Map());
    totals.get(q.window)!.set(q.key, { amount: given.amount, count: given.count, usd: given.usd });
  }
  return totals;
}

function compare(outcome: Outcome, expect: Decision, expectRules: string[] | undefined): string[] {
  const failures: string[] = [];
  if (outcome.decision !== expect) {
    const why = outcome.reasons.length > 0 ? ` (${outcome.reasons.join("; ")})` : "";
    failures.push(`expected ${expect}, got ${outcome.decision}${why}`);
  }
  if (expectRules) {
    const matched = [...new Set(outcome.matched.map((m) => m.rule))].sort();
    const wanted = [...new Set(expectRules)].sort();
    if (JSON.stringify(matched) !== JSON.stringify(wanted)) {
      failures.push(`expected rules [${wanted.join(", ")}] to match, matched [${matched.join(", ")}]`);
    }
  }
  return failures;
}

/** Unknown window names in a case's `velocity` are a mistake in the test, not silently zero. */
export function unknownWindows(bundle: PolicyBundle, c: PolicyTestCase): string[] {
  const known = new Set(bundle.windows.map((w) => w.name));
  return Object.keys(c.velocity ?? {}).filter((w) => !known.has(w));
}
