/**
 * The gate every bundle passes before it decides anything, live or shadow: it loads, no window of
 * it outlasts the ledger's retention (window-retention.ts), and every case under its tests/ passes.
 * A refusal says why, names the failing cases, and carries the digest of the refused files so that
 * the same files are not compiled and tested again on every reload poll.
 */
import { readBundleFiles, type BundleFiles, type ReadOptions } from "./bundle-files.js";
import { runPolicyTests } from "./check.js";
import { bundleDigest } from "./digest.js";
import { bundleFromFiles } from "./load.js";
import type { PolicyBundle } from "../core/policy/types.js";
import { windowPastRetention } from "./window-retention.js";

/** How a bundle is read, and what the service can keep for it (COUNTERSIGN_LEDGER_RETENTION). */
export interface AdmitOptions extends ReadOptions {
  /** The ledger's retention in seconds: a window longer than it is refused. */
  retentionSeconds?: number;
}

export type RefusalReason = "invalid" | "tests_failed" | "unreadable" | "unclaimed";

/** Runs before a reloaded candidate takes effect: null to apply it, or why not. */
export type ApplyGuard = (candidate: PolicyBundle) => Promise<string | null>;

export interface FailedCase {
  file: string;
  name: string;
  failures: string[];
}

export interface Refusal {
  reason: RefusalReason;
  message: string;
  failedCases: FailedCase[];
  /** The refused files' digest; null when they could not all be read (they are tried again). */
  digest: string | null;
}

export type Admission = { ok: true; bundle: PolicyBundle } | { ok: false; refusal: Refusal };

/** Reads the directory and admits (or refuses) what it holds. */
export async function admitBundle(directory: string, options: AdmitOptions = {}): Promise<Admission> {
  return admitFiles(directory, await readBundleFiles(directory, options), options);
}

/** The digest of files read, or null when some could not be read (nothing to recognise them by). */
export function filesDigest(read: BundleFiles): string | null {
  return read.problems.length === 0 ? bundleDigest(read.files) : null;
}

/** Compiles and tests files already read. */
export async function admitFiles(directory: string, read: BundleFiles, options: AdmitOptions): Promise<Admission> {
  const loaded = bundleFromFiles(directory, read.files, read.problems);
  if (!loaded.ok) return { ok: false, refusal: { reason: "invalid", message: loaded.error.message, failedCases: [], digest: filesDigest(read) } };
  return testBundle(loaded.value, options);
}

async function testBundle(bundle: PolicyBundle, options: AdmitOptions): Promise<Admission> {
  const pastRetention = windowPastRetention(bundle, options.retentionSeconds);
  if (pastRetention) return { ok: false, refusal: { reason: "invalid", message: pastRetention, failedCases: [], digest: bundle.digest } };
  const results = await runPolicyTests(bundle);
  const failed = results.filter((r) => !r.passed).map(({ file, name, failures }) => ({ file, name, failures }));
  if (failed.length === 0) return { ok: true, bundle };
  const list = failed.map((c) => `${c.file}: "${c.name}": ${c.failures.join("; ")}`);
  const message = `policy bundle ${bundle.directory} (version ${bundle.version}) fails ${failed.length} of its ${results.length} test cases:\n${list.map((l) => `  - ${l}`).join("\n")}`;
  return { ok: false, refusal: { reason: "tests_failed", message, failedCases: failed, digest: bundle.digest } };
}

/** The refusal of a candidate whose windows could not be claimed; tried again at the next poll. */
export function unclaimed(message: string): Refusal {
  return { reason: "unclaimed", message, failedCases: [], digest: null };
}

/** The refusal of a bundle that could not be read at all (the cause is logged, not shown). */
export function unreadable(): Refusal {
  return { reason: "unreadable", message: "policy bundle could not be read", failedCases: [], digest: null };
}
