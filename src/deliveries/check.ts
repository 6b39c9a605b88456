/**
 * The platform check of a delivery (docs/interface.md section 11), a step of the decision path that
 * runs before any lock: whoever holds the webhook token can POST a body, so countersign decides only
 * on what the custody platform itself holds.
 *
 * A repeat of a final decision (same name, same content digest) is answered from the record
 * without asking. Otherwise the platform's copy is read within the decision's deadline; the same
 * content awaiting a signature is decided on the platform's copy. A differing content, a name the
 * platform does not have, or a copy in another state is refused (409), recorded, counted and
 * logged, and nothing is decided. The platform unreachable, slow or failing defers (503).
 */
import { AppError } from "../core/errors.js";
import type { Db } from "../database.js";
import type { Logger } from "../log.js";
import type { Transaction } from "../core/transaction/types.js";
import type { Circuit, CircuitState } from "./circuit.js";
import { compareWithPlatform, type Refusal, type RefusalCode } from "./compare.js";
import type { ReadPlatformCopy } from "./platform-copy.js";
import { finalDigestOf, recordRefusal } from "./refusals.js";

export type DeliveryMode = "platform" | "off";

export type Checked = { kind: "confirmed"; tx: Transaction } | { kind: "refused"; error: AppError } | { kind: "unavailable"; cause: "platform_unavailable" };

export interface DeliveryCheck {
  /** `tx` as delivered, `digest` its content digest; `until` a performance.now() instant. */
  check(tx: Transaction, digest: string, requestId: string, until: number): Promise<Checked>;
  circuit(): CircuitState;
}

export interface DeliveryCheckOptions {
  db: Db;
  read: ReadPlatformCopy;
  circuit: Circuit;
  logger: Logger;
  clock: () => Date;
  /** Told of each refusal once it is recorded (the metric). */
  refused?: (code: RefusalCode) => void;
}

const PUBLIC_MESSAGE: Record<RefusalCode, string> = {
  DELIVERY_MISMATCH: "this delivery is not what the custody platform holds for this transaction name: nothing was decided",
  NOT_AWAITING_SIGNATURE: "the custody platform's copy of this transaction is not awaiting a signature: nothing was decided",
};

/** What an operator reading the log must know: a mismatch means the webhook token is in other hands. */
const LOG_MESSAGE: Record<RefusalCode, string> = {
  DELIVERY_MISMATCH:
    "delivery refused: it differs from the custody platform's copy, or names a transaction the platform does not have; whoever sent it holds the webhook token: rotate COUNTERSIGN_WEBHOOK_TOKEN (docs/operating.md, a delivery the platform does not hold)",
  NOT_AWAITING_SIGNATURE: "delivery refused: the custody platform's copy is no longer awaiting a signature",
};

export function createDeliveryCheck(options: DeliveryCheckOptions): DeliveryCheck {
  const { db, read, circuit, logger } = options;
  return {
    circuit: () => circuit.state(),
    check: async (tx, digest, requestId, until) => {
      if ((await finalDigestOf(db, tx.name)) === digest) return { kind: "confirmed", tx };
      if (!circuit.allow()) return { kind: "unavailable", cause: "platform_unavailable" };
      const answer = await read(tx, until).catch((error: unknown) => {
        circuit.failed(); // else a trial that threw would hold a half-open circuit shut for good
        throw error;
      });
      if (answer.kind === "unavailable") {
        circuit.failed();
        logger.warn({ requestId, transaction: tx.name, error: answer.error.toJSON(), circuit: circuit.state() }, "platform check unavailable; deferring");
        return { kind: "unavailable", cause: "platform_unavailable" };
      }
      circuit.succeeded();
      const comparison = compareWithPlatform(digest, answer.kind === "held" ? answer.copy : null);
      if (comparison.kind === "same") return { kind: "confirmed", tx: comparison.copy };
      return refuse(options, tx, comparison.refusal, requestId);
    },
  };
}

async function refuse(options: DeliveryCheckOptions, tx: Transaction, refusal: Refusal, requestId: string): Promise<Checked> {
  const refusalId = await recordRefusal(options.db, tx, refusal, requestId, options.clock());
  options.refused?.(refusal.code);
  const fields = {
    requestId,
    transaction: tx.name,
    refusalId,
    code: refusal.code,
    deliveredDigest: refusal.deliveredDigest,
    platformDigest: refusal.platformDigest,
    platformState: refusal.platformState,
  };
  if (refusal.code === "DELIVERY_MISMATCH") options.logger.error(fields, LOG_MESSAGE.DELIVERY_MISMATCH);
  else options.logger.warn(fields, LOG_MESSAGE.NOT_AWAITING_SIGNATURE);
  return { kind: "refused", error: new AppError(refusal.code, PUBLIC_MESSAGE[refusal.code], { details: { refusalId } }) };
}

/**
 * The instant the platform check must be over by: the decision's deadline less a reserve for its
 * own database round trips, so that a check that runs out of time defers saying why, rather than
 * the deadline striking first with no reason.
 */
export function checkHorizon(deadline: { expiresAt: number; budgetMs: number }): number {
  return deadline.expiresAt - Math.min(RESERVE_MS, deadline.budgetMs / 4);
}

const RESERVE_MS = 500;
