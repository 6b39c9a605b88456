/**
 * `countersign velocity void NAME --reason TEXT [--by OPERATOR]`: the transaction did not move
 * money; free its window room. Refused for a transaction the platform reported CONFIRMED (a stored
 * event): the money moved, so its charges keep counting, as the events endpoint keeps them
 * (src/events/process.ts). A void frees room the wallet may spend again, so it goes into the audit
 * trail (`velocity_voids`) with who ran it and why: the reason is required; the operator is `--by`,
 * else the OS user running the command.
 */
import { userInfo } from "node:os";
import type { WithDatabase } from "./with-database.js";
import { voidCharges, type ManualVoid } from "../velocity/void.js";

const NAME = /^vaults\/[A-Za-z0-9_-]+\/transactions\/[A-Za-z0-9_-]+$/;
const USAGE = "usage: countersign velocity void NAME --reason TEXT [--by OPERATOR]";

export interface VoidArguments {
  name: string;
  reason?: string | undefined;
  by?: string | undefined;
}

export async function velocityVoid(args: VoidArguments, withDatabase: WithDatabase, out: (line: string) => void): Promise<number> {
  const parsed = voidRequest(args);
  if (typeof parsed === "string") {
    out(parsed);
    return 2;
  }
  const { name, manual } = parsed;
  const result = await withDatabase((db) => voidCharges(db, name, new Date(), manual));
  if (result.confirmed) {
    out(`${name}: not voided: the platform reported it CONFIRMED (the money moved), so its charges keep counting`);
    return 1;
  }
  const { voided } = result;
  out(voided === 0 ? `${name}: no charges to void` : `${name}: voided ${voided} charge${voided === 1 ? "" : "s"}, recorded in velocity_voids (by ${manual.operator})`);
  return 0;
}

/** The name and the record of who voids and why, or what is wrong with the arguments. */
function voidRequest({ name, reason: given, by }: VoidArguments): { name: string; manual: ManualVoid } | string {
  if (!NAME.test(name)) return "not a transaction name: expected vaults/{vault_id}/transactions/{transaction_id}";
  const reason = given?.trim() ?? "";
  if (reason.length === 0 || reason.length > 2000) return `--reason is required (1 to 2000 characters): why the transaction moved no money\n${USAGE}`;
  const operator = (by ?? osUser()).trim();
  if (operator.length === 0 || operator.length > 200) return `--by must name the operator (1 to 200 characters)\n${USAGE}`;
  return { name, manual: { operator, reason } };
}

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return "";
  }
}
