/**
 * Reading recorded decisions through the running service, for a CLI command that cannot open the
 * embedded database because `serve` holds it: `GET /v1/decisions/{id}` at COUNTERSIGN_URL, else at
 * COUNTERSIGN_HOST and COUNTERSIGN_PORT as `serve` reads them, with COUNTERSIGN_ADMIN_TOKEN.
 */
import type { DecisionView } from "../audit/decision-view.js";
import type { Config } from "../config.js";

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

export function serviceDecisionReader(baseUrl: string, adminToken: string | undefined): (id: string) => Promise<DecisionView | null> {
  return async (id) => {
    if (adminToken === undefined) {
      throw new ServiceReadError(`the embedded database is in use by the running service; set COUNTERSIGN_ADMIN_TOKEN (the service's) to read the decision through ${baseUrl}`);
    }
    const response = await fetch(`${baseUrl}/v1/decisions/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${adminToken}` } }).catch(() => {
      throw new ServiceReadError(`the embedded database is in use, and no service answers at ${baseUrl} (set COUNTERSIGN_URL to where it runs)`);
    });
    if (response.status === 404) return null;
    if (!response.ok) {
      const code = ((await response.json().catch(() => null)) as { error?: { code?: string } } | null)?.error?.code ?? `HTTP ${response.status}`;
      throw new ServiceReadError(`the service at ${baseUrl} refused to read the decision: ${code}`);
    }
    return (await response.json()) as DecisionView;
  };
}
