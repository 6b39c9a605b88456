/**
 * The bundle in force. Loaded at boot (a bundle that does not load, or whose own tests fail, stops
 * `serve`); reloaded on SIGHUP and when its digest changes on disk. A candidate is admitted only
 * when it loads, no window of it outlasts the ledger's retention (window-retention.ts), AND every
 * case under its tests/ passes; otherwise it is refused, the bundle in
 * force keeps serving, and `GET /v1/policy`, the log and the `countersign.policy.reloads` metric
 * say why (naming the failing cases) — a broken pull request never unloads a good policy.
 * When an apply guard is set (the service claims the candidate's windows in the database,
 * src/velocity/claims.ts), a candidate takes effect only once the guard passes.
 */
import { describeError, type Logger } from "../log.js";
import { readBundleFiles, type ReadOptions } from "./bundle-files.js";
import { runPolicyTests } from "./check.js";
import { bundleDigest } from "./digest.js";
import { bundleFromFiles, loadBundle } from "./load.js";
import type { PolicyBundle } from "./types.js";
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

export interface PolicyStatus {
  version: string;
  digest: string;
  directory: string;
  loadedAt: string;
  lastReloadAt: string | null;
  lastReloadError: string | null;
  /** The bundle's own test cases that failed in the last refused reload. */
  lastReloadFailedCases: FailedCase[];
}

export interface ReloadListener {
  (result: "applied" | "refused", reason?: RefusalReason): void;
}

interface Refusal {
  reason: RefusalReason;
  message: string;
  failedCases: FailedCase[];
  digest: string | null;
}

type Admission = { ok: true; bundle: PolicyBundle } | { ok: false; refusal: Refusal };

/** Loads a bundle and runs its own tests: the gate every bundle passes before it decides anything. */
export async function admitBundle(directory: string, options: AdmitOptions = {}): Promise<Admission> {
  const loaded = await loadBundle(directory, options);
  if (!loaded.ok) return { ok: false, refusal: { reason: "invalid", message: loaded.error.message, failedCases: [], digest: null } };
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

export class ActivePolicy {
  private loadedAt: Date;
  private lastReloadAt: Date | null = null;
  private refusal: Refusal | null = null;
  private applyGuard: ApplyGuard | null = null;

  private constructor(
    private bundle: PolicyBundle,
    private readonly logger: Logger,
    private readonly onReload: ReloadListener,
    private readonly options: AdmitOptions = {},
  ) {
    this.loadedAt = new Date();
  }

  /** Loads the bundle and runs its tests, or throws with every problem or failing case listed. */
  static async load(directory: string, logger: Logger, options: AdmitOptions = {}, onReload: ReloadListener = () => undefined): Promise<ActivePolicy> {
    const admitted = await admitBundle(directory, options);
    if (!admitted.ok) throw new Error(admitted.refusal.message);
    return new ActivePolicy(admitted.bundle, logger, onReload, options);
  }

  static of(bundle: PolicyBundle, logger: Logger): ActivePolicy {
    return new ActivePolicy(bundle, logger, () => undefined);
  }

  /**
   * Set once the database is open (the bundle is loaded before it, at boot): from then on a
   * reloaded candidate takes effect only when `guard` passes.
   */
  guardApply(guard: ApplyGuard): void {
    this.applyGuard = guard;
  }

  current(): PolicyBundle {
    return this.bundle;
  }

  /** Reloads from disk; returns true when a new bundle took effect. */
  async reload(): Promise<boolean> {
    this.lastReloadAt = new Date();
    try {
      const read = await readBundleFiles(this.bundle.directory, this.options);
      // Files as they were are not compiled again: compiling blocks the event loop (tens of ms for
      // the example bundle) and this runs every poll, under load. The digest covers every byte.
      const digest = read.problems.length === 0 ? bundleDigest(read.files) : null;
      if (digest === this.bundle.digest) {
        this.refusal = null;
        return false;
      }
      // The same refused files are not re-tested (and re-logged) on every poll.
      if (digest !== null && this.refusal?.digest === digest) return false;
      const loaded = bundleFromFiles(this.bundle.directory, read.files, read.problems);
      if (!loaded.ok) return this.refuse({ reason: "invalid", message: loaded.error.message, failedCases: [], digest: null });
      const candidate = loaded.value;
      const tested = await testBundle(candidate, this.options);
      if (!tested.ok) return this.refuse(tested.refusal);
      // Not remembered by digest: the same files are tried again at the next poll.
      const unguarded = this.applyGuard ? await this.applyGuard(candidate) : null;
      if (unguarded !== null) return this.refuse({ reason: "unclaimed", message: unguarded, failedCases: [], digest: null });
      this.refusal = null;
      this.bundle = candidate;
      this.loadedAt = new Date();
      this.logger.info({ version: candidate.version, digest: candidate.digest }, "policy reloaded");
      this.onReload("applied");
      return true;
    } catch (error) {
      this.logger.error({ ...describeError(error) }, "policy reload failed");
      return this.refuse({ reason: "unreadable", message: "policy bundle could not be read", failedCases: [], digest: null });
    }
  }

  private refuse(refusal: Refusal): false {
    this.refusal = refusal;
    this.logger.warn(
      { directory: this.bundle.directory, reason: refusal.reason, failedCases: refusal.failedCases.map((c) => `${c.file}: ${c.name}`), error: refusal.message },
      "policy reload refused; keeping the bundle in force",
    );
    this.onReload("refused", refusal.reason);
    return false;
  }

  status(): PolicyStatus {
    return {
      version: this.bundle.version,
      digest: this.bundle.digest,
      directory: this.bundle.directory,
      loadedAt: this.loadedAt.toISOString(),
      lastReloadAt: this.lastReloadAt?.toISOString() ?? null,
      lastReloadError: this.refusal?.message ?? null,
      lastReloadFailedCases: this.refusal?.failedCases ?? [],
    };
  }
}
