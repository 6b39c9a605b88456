/**
 * The bundle in force. Loaded at boot (a bundle that does not load, or whose own tests fail, stops
 * `serve`); reloaded on SIGHUP and when its digest changes on disk. A candidate is admitted only
 * when it passes the gate of admission.ts (it loads, its windows fit the ledger's retention, its
 * own tests pass); otherwise it is refused, the bundle in force keeps serving, and `GET /v1/policy`, the log and the `countersign.policy.reloads` metric
 * say why (naming the failing cases) — a broken pull request never unloads a good policy.
 * When an apply guard is set (the service claims the candidate's windows in the database,
 * src/velocity/claims.ts), a candidate takes effect only once the guard passes.
 */
import { describeError, type Logger } from "../log.js";
import { admitBundle, admitFiles, filesDigest, unclaimed, unreadable, type AdmitOptions, type ApplyGuard, type FailedCase, type Refusal, type RefusalReason } from "./admission.js";
import { readBundleFiles } from "./bundle-files.js";
import type { PolicyBundle } from "../core/policy/types.js";

export type { AdmitOptions, ApplyGuard, FailedCase, RefusalReason } from "./admission.js";

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

  /** A bundle admitted already (a shadow candidate that passed after boot), reloaded from then on. */
  static admitted(bundle: PolicyBundle, logger: Logger, options: AdmitOptions, onReload: ReloadListener): ActivePolicy {
    return new ActivePolicy(bundle, logger, onReload, options);
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
      const digest = filesDigest(read);
      if (digest === this.bundle.digest) {
        this.refusal = null;
        return false;
      }
      // The same refused files are not re-tested (and re-logged) on every poll.
      if (digest !== null && this.refusal?.digest === digest) return false;
      const admitted = await admitFiles(this.bundle.directory, read, this.options);
      if (!admitted.ok) return this.refuse(admitted.refusal);
      const candidate = admitted.bundle;
      // Not remembered by digest: the same files are tried again at the next poll.
      const unguarded = this.applyGuard ? await this.applyGuard(candidate) : null;
      if (unguarded !== null) return this.refuse(unclaimed(unguarded));
      this.refusal = null;
      this.bundle = candidate;
      this.loadedAt = new Date();
      this.logger.info({ version: candidate.version, digest: candidate.digest }, "policy reloaded");
      this.onReload("applied");
      return true;
    } catch (error) {
      this.logger.error({ ...describeError(error) }, "policy reload failed");
      return this.refuse(unreadable());
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

  /** Why the files on disk are not the bundle in force, when the last reload refused them. */
  lastRefusal(): Refusal | null {
    return this.refusal;
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
