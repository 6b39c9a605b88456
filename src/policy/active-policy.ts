/**
 * The bundle in force. Loaded at boot (a bundle that does not load stops `serve`); reloaded on
 * SIGHUP and when its digest changes on disk. A reload that fails keeps the bundle in force and
 * records the error for `GET /v1/policy` — a broken pull request never unloads a good policy.
 */
import { describeError, type Logger } from "../log.js";
import type { ReadOptions } from "./bundle-files.js";
import { loadBundle } from "./load.js";
import type { PolicyBundle } from "./types.js";

export interface PolicyStatus {
  version: string;
  digest: string;
  directory: string;
  loadedAt: string;
  lastReloadAt: string | null;
  lastReloadError: string | null;
}

export class ActivePolicy {
  private loadedAt: Date;
  private lastReloadAt: Date | null = null;
  private lastReloadError: string | null = null;

  private constructor(
    private bundle: PolicyBundle,
    private readonly logger: Logger,
    private readonly readOptions: ReadOptions = {},
  ) {
    this.loadedAt = new Date();
  }

  /** Loads the bundle or throws with every problem listed. */
  static async load(directory: string, logger: Logger, readOptions: ReadOptions = {}): Promise<ActivePolicy> {
    const result = await loadBundle(directory, readOptions);
    if (!result.ok) throw new Error(result.error.message);
    return new ActivePolicy(result.value, logger, readOptions);
  }

  static of(bundle: PolicyBundle, logger: Logger): ActivePolicy {
    return new ActivePolicy(bundle, logger);
  }

  current(): PolicyBundle {
    return this.bundle;
  }

  /** Reloads from disk; returns true when a new bundle took effect. */
  async reload(): Promise<boolean> {
    this.lastReloadAt = new Date();
    try {
      const result = await loadBundle(this.bundle.directory, this.readOptions);
      if (!result.ok) {
        this.lastReloadError = result.error.message;
        this.logger.warn({ directory: this.bundle.directory }, "policy reload failed; keeping the bundle in force");
        return false;
      }
      this.lastReloadError = null;
      if (result.value.digest === this.bundle.digest) return false;
      this.bundle = result.value;
      this.loadedAt = new Date();
      this.logger.info({ version: this.bundle.version, digest: this.bundle.digest }, "policy reloaded");
      return true;
    } catch (error) {
      this.lastReloadError = "policy bundle could not be read";
      this.logger.error({ ...describeError(error) }, "policy reload failed");
      return false;
    }
  }

  status(): PolicyStatus {
    return {
      version: this.bundle.version,
      digest: this.bundle.digest,
      directory: this.bundle.directory,
      loadedAt: this.loadedAt.toISOString(),
      lastReloadAt: this.lastReloadAt?.toISOString() ?? null,
      lastReloadError: this.lastReloadError,
    };
  }
}
