/** Endpoints read at a JSON path: a malformed one is a 400 naming the path. */
import type { ChainFamily } from "../chains/family.js";
import { endpointSpellingIssue } from "../chains/spelling.js";
import { err, ok, type AppError, type Result } from "../errors.js";
import { parseEndpoint } from "./endpoint.js";
import { invalidAt } from "./issues.js";
import type { ShapeContext } from "./shape.js";
import type { Endpoint } from "./types.js";

/** The family whose accounts a transfer moves between (src/core/chains/registry.ts accountFamily), or null when none is known. */
export type AccountFamily = ChainFamily | null;

/**
 * `family`: the accounts of the network the transfer moves on: a raw address is refused unless
 * written as that family's rules, address book and windows compare it (src/core/chains/spelling.ts).
 */
export function endpointAt(value: string, path: string, ctx: Pick<ShapeContext, "vault">, family: AccountFamily = null): Result<Endpoint, AppError> {
  const endpoint = parseEndpoint(value, ctx.vault);
  if (endpoint === null) return err(invalidAt(path, "must be a wallet or wallet-address resource name, or a raw address"));
  if (endpoint.kind !== "address") return ok(endpoint);
  const issue = endpointSpellingIssue(value, family);
  return issue === null ? ok(endpoint) : err(invalidAt(path, issue));
}
