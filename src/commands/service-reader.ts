/**
 * Reading through the running service, for a CLI command that cannot open the embedded database
 * because `serve` holds it: the service at COUNTERSIGN_URL, else at COUNTERSIGN_HOST and
 * COUNTERSIGN_PORT as `serve` reads them, asked with COUNTERSIGN_ADMIN_TOKEN. Only the embedded
 * database's lock sends a command there: any other failure to open a database is the command's own.
 */
import type { DecisionView } from "../audit/decision-view.js";
import type { VerifyOptions } from "../audit/verify.js";
import { verifyOutcomeSchema, verifyRequestOf, type VerifyOutcome } from "../audit/verify-outcome.js";
import type { ReplayRange } from "../replay/recorded.js";
import { readReplayReport, replayRequestOf, type SentBundle } from "../replay/replay-request.js";
import type { ReplayReport } from "../replay/summary.js";
import { loadConfig, type Config } from "../config.js";
import { EmbeddedDatabaseInUse } from "../db/connect.js";

/** Where `serve` answers, seen from this machine: a wildcard address is reached on loopback. */
export function serviceUrl(env: NodeJS.ProcessEnv, config: Pick<Config, "host" | "port">): string {
  const given = env.COUNTERSIGN_URL?.trim();
  if (given) return given.replace(/\/+$/, "");
  const bare = config.host.replace(/^\[(.*)\]$/, "$1");
  const host = bare === "0.0.0.0" ? "127.0.0.1" : bare === "::" ? "::1" : bare;
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.port}`;
}

/** Why the service could not be asked, in the operator's words. */
export class ServiceReadError extends Error {
  override readonly name = "ServiceReadError";
}

/** One admin request to the service: its JSON answer, or null for a 404. `what` names the task in errors ("read the decision"). */
export type AskService = (what: string, path: string, body?: unknown) => Promise<unknown>;

export function serviceAsker(baseUrl: string, adminToken: string | undefined): AskService {
  return async (what, path, body) => {
    if (adminToken === undefined) {
      throw new ServiceReadError(`the embedded database is in use by the running service; set COUNTERSIGN_ADMIN_TOKEN (the service's) to ${what} through ${baseUrl}`);
    }
    const headers: Record<string, string> = { authorization: `Bearer ${adminToken}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    const init = body === undefined ? { headers } : { method: "POST", headers, body: JSON.stringify(body) };
    const response = await fetch(`${baseUrl}${path}`, init).catch(() => {
      throw new ServiceReadError(`the embedded database is in use, and no service answers at ${baseUrl} (set COUNTERSIGN_URL to where it runs)`);
    });
    if (response.status === 404) return null;
    if (!response.ok) {
      const code = ((await response.json().catch(() => null)) as { error?: { code?: string } } | null)?.error?.code ?? `HTTP ${response.status}`;
      throw new ServiceReadError(`the service at ${baseUrl} refused to ${what}: ${code}`);
    }
    return response.json();
  };
}

/**
 * Runs `local` on the command's own database; when `serve` holds the embedded one, runs `remote`
 * against that service instead, so a read command answers the same while the service runs.
 */
export async function locallyOrThroughService<T>(local: () => Promise<T>, remote: (ask: AskService) => Promise<T>): Promise<T> {
  try {
    return await local();
  } catch (error) {
    if (!(error instanceof EmbeddedDatabaseInUse)) throw error;
  }
  const config = loadConfig();
  return remote(serviceAsker(serviceUrl(process.env, config), config.adminToken));
}

export const decisionThroughService =
  (ask: AskService) =>
  async (id: string): Promise<DecisionView | null> =>
    (await ask("read the decision", `/v1/decisions/${encodeURIComponent(id)}`)) as DecisionView | null;

/** `POST /v1/audit/verify`: the service verifies its own trail; its answer is read as the local run's. */
export const verifyThroughService =
  (ask: AskService) =>
  async (options: VerifyOptions): Promise<VerifyOutcome> => {
    const what = "verify the audit trail";
    const parsed = verifyOutcomeSchema.safeParse(await ask(what, "/v1/audit/verify", verifyRequestOf(options)));
    if (!parsed.success) throw new ServiceReadError(`the service did not answer a verify report (is COUNTERSIGN_URL countersign?)`);
    return parsed.data;
  };

/** `POST /v1/policy/replay`: the service replays the bundle's files, as read here, on its database. */
export const replayThroughService =
  (ask: AskService) =>
  async (candidate: SentBundle, range: ReplayRange, now: Date): Promise<ReplayReport> => {
    const report = readReplayReport(await ask("replay the bundle", "/v1/policy/replay", replayRequestOf(candidate, range, now)));
    if (!report) throw new ServiceReadError(`the service did not answer a replay report (is COUNTERSIGN_URL countersign?)`);
    return report;
  };
