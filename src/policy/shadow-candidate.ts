/**
 * The candidate of COUNTERSIGN_SHADOW_POLICIES. A shadow is never answered, so a candidate that
 * does not pass admission (admission.ts) at boot never stops `serve`: the service starts on the
 * live bundle with shadow evaluation off, and the error is logged once, shown under `shadow` in
 * `GET /v1/policy` and counted (countersign.shadow.loaded, countersign.shadow.load_failures). A
 * reload (SIGHUP, the file poll) that finds an admissible candidate turns the shadow on, through the
 * same apply guard as any reload (its windows are claimed first, src/velocity/claims.ts).
 * Once on, the candidate reloads as the live bundle does: a broken reload keeps the candidate in
 * force and says why, under `error`.
 */
import { describeError, type Logger } from "../log.js";
import { admitFiles, filesDigest, unclaimed, unreadable, type AdmitOptions, type ApplyGuard, type FailedCase, type Refusal, type RefusalReason } from "./admission.js";
import { ActivePolicy, type PolicyStatus, type ReloadListener } from "./active-policy.js";
import { readBundleFiles } from "./bundle-files.js";
import type { PolicyBundle } from "../core/policy/types.js";

/** Why the candidate on disk is not the one evaluated. */
export interface ShadowLoadError {
  /** The refusal's reason, as the reload metrics name it. */
  code: RefusalReason;
  message: string;
  failedCases: FailedCase[];
}

export type ShadowStatus =
  ({ loaded: true; error: ShadowLoadError | null } & PolicyStatus) | { loaded: false; directory: string; lastReloadAt: string | null; error: ShadowLoadError };

export class ShadowCandidate {
  private policy: ActivePolicy | null = null;
  /** Set while the shadow is off: why the candidate was not admitted. */
  private refusal: Refusal | null = null;
  private lastReloadAt: Date | null = null;
  private applyGuard: ApplyGuard | null = null;

  private constructor(
    private readonly directory: string,
    private readonly logger: Logger,
    private readonly options: AdmitOptions,
    private readonly onReload: ReloadListener,
  ) {}

  /** Never throws for the candidate's sake: one that is not admitted leaves the shadow off. */
  static async start(directory: string, logger: Logger, options: AdmitOptions, onReload: ReloadListener): Promise<ShadowCandidate> {
    const shadow = new ShadowCandidate(directory, logger, options, onReload);
    await shadow.admit();
    return shadow;
  }

  /** The candidate evaluated beside the live bundle, or null while the shadow is off. */
  current(): PolicyBundle | null {
    return this.policy?.current() ?? null;
  }

  guardApply(guard: ApplyGuard): void {
    this.applyGuard = guard;
    this.policy?.guardApply(guard);
  }

  /** Returns true when a candidate took effect: the shadow turned on, or a new one replaced it. */
  async reload(): Promise<boolean> {
    if (this.policy) return this.policy.reload();
    this.lastReloadAt = new Date();
    return this.admit();
  }

  status(): ShadowStatus {
    if (this.policy) {
      const refused = this.policy.lastRefusal();
      return { loaded: true, ...this.policy.status(), error: refused ? loadError(refused) : null };
    }
    const refusal = this.refusal ?? unreadable();
    return { loaded: false, directory: this.directory, lastReloadAt: this.lastReloadAt?.toISOString() ?? null, error: loadError(refusal) };
  }

  private async admit(): Promise<boolean> {
    try {
      const read = await readBundleFiles(this.directory, this.options);
      const digest = filesDigest(read);
      // The same refused files are not compiled, tested or logged again on every poll.
      if (digest !== null && this.refusal?.digest === digest) return false;
      const admitted = await admitFiles(this.directory, read, this.options);
      if (!admitted.ok) return this.stayOff(admitted.refusal);
      const unguarded = this.applyGuard ? await this.applyGuard(admitted.bundle) : null;
      if (unguarded !== null) return this.stayOff(unclaimed(unguarded));
      this.turnOn(admitted.bundle);
      return true;
    } catch (error) {
      this.logger.error({ directory: this.directory, ...describeError(error) }, "shadow policy bundle could not be read");
      return this.stayOff(unreadable());
    }
  }

  private turnOn(bundle: PolicyBundle): void {
    const policy = ActivePolicy.admitted(bundle, this.logger, this.options, this.onReload);
    if (this.applyGuard) policy.guardApply(this.applyGuard);
    this.policy = policy;
    this.refusal = null;
    this.logger.info({ directory: this.directory, version: bundle.version, digest: bundle.digest }, "shadow policy bundle loaded; shadow evaluation is on");
    this.onReload("applied");
  }

  private stayOff(refusal: Refusal): false {
    // Files that cannot all be read have no digest; the same refusal is still said only once.
    const repeated = this.refusal !== null && this.refusal.reason === refusal.reason && this.refusal.message === refusal.message;
    this.refusal = refusal;
    if (repeated) return false;
    this.logger.error(
      { directory: this.directory, reason: refusal.reason, failedCases: refusal.failedCases.map((c) => `${c.file}: ${c.name}`), error: refusal.message },
      "shadow policy bundle not loaded; shadow evaluation is off until a reload admits it",
    );
    this.onReload("refused", refusal.reason);
    return false;
  }
}

function loadError(refusal: Refusal): ShadowLoadError {
  return { code: refusal.reason, message: refusal.message, failedCases: refusal.failedCases };
}
