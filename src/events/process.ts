/**
 * A verified delivery, from bytes to acknowledgement: parse, store (deduplicated by event id),
 * then apply the event's effect unless an earlier delivery completed it.
 *
 * Why effects are recorded rather than re-run on every delivery: a captured delivery can be
 * replayed by anyone (the signature carries no timestamp), and each replay would otherwise
 * trigger a vault re-sync against the custody API. Why they are not tied to "newly stored": an
 * effect that failed on the first delivery must run on the redelivery, which the platform makes
 * precisely because we answered 5xx.
 */
import type { Db } from "../database.js";
import { AppError, err, ok, type Result } from "../core/errors.js";
import { effectOf, type EventEffect, type EventEffectHandlers } from "./effects.js";
import { parseEvent, type PlatformEvent } from "./event.js";
import { effectCompleted, recordEffectCompleted, storedEventBody, storeEvent, transactionConfirmed } from "./store.js";

export interface ProcessedEvent {
  event: PlatformEvent;
  /** The id was already stored by an earlier (or concurrent) delivery. */
  duplicate: boolean;
  /** What this delivery did about the event's effect. */
  effect: { name: EventEffect["name"]; outcome: EffectOutcome } | null;
}

export interface ProcessDeps extends EventEffectHandlers {
  db: Db;
  now(): Date;
}

export async function processVerifiedEvent(deps: ProcessDeps, body: Buffer, signature: string): Promise<Result<ProcessedEvent>> {
  const parsed = parseEvent(body);
  if (!parsed.ok) return parsed;
  const { payload } = parsed.value;
  let event = parsed.value.event;

  const stored = await store(deps, event, { body, signature, payload });
  if (!stored.ok) return stored;
  if (!stored.value) {
    // A duplicate acts as the stored event, not as this body: the id is the event, and the row is
    // what the audit shows. A different body under a stored id (re-serialised, or reused) must not
    // run an effect the stored row does not call for, nor skip one it does.
    const first = await storedEvent(deps, event.id);
    if (!first.ok) return first;
    event = first.value;
  }

  const effect = effectOf(event);
  if (effect === null) return ok({ event, duplicate: !stored.value, effect: null });
  const applied = await applyOnce(deps, event, effect);
  if (!applied.ok) return applied;
  return ok({ event, duplicate: !stored.value, effect: { name: effect.name, outcome: applied.value } });
}

async function storedEvent(deps: ProcessDeps, id: string): Promise<Result<PlatformEvent>> {
  let body: Buffer | undefined;
  try {
    body = await storedEventBody(deps.db, id);
  } catch (cause) {
    return err(new AppError("UNAVAILABLE", "The event could not be read; deliver it again", { cause }));
  }
  if (body === undefined) return err(new AppError("UNAVAILABLE", "The event could not be read; deliver it again"));
  const parsed = parseEvent(Buffer.from(body));
  // The stored body passed this parser when it was stored; failing now is an internal error.
  return parsed.ok ? ok(parsed.value.event) : err(new AppError("INTERNAL", "The stored event cannot be read", { cause: parsed.error }));
}

async function store(deps: ProcessDeps, event: PlatformEvent, delivery: { body: Buffer; signature: string; payload: unknown }): Promise<Result<boolean>> {
  try {
    return ok((await storeEvent(deps.db, event, delivery, deps.now())).stored);
  } catch (cause) {
    // A value Postgres cannot hold in jsonb (e.g. "\u0000"): redelivering the same bytes cannot help.
    if (isDataException(cause)) return err(new AppError("INVALID_REQUEST", "The event cannot be stored", { cause }));
    return err(new AppError("UNAVAILABLE", "The event could not be stored; deliver it again", { cause }));
  }
}

/** `transaction-confirmed`: a failure reported after CONFIRMED; the charges stay (the money moved). */
type EffectOutcome = "applied" | "already-applied" | "transaction-confirmed";

async function applyOnce(deps: ProcessDeps, event: PlatformEvent, effect: EventEffect): Promise<Result<EffectOutcome>> {
  try {
    if (await effectCompleted(deps.db, event.id)) return ok("already-applied");
    // The platform said the money moved: a later (or late) failure of the same transaction must not
    // free its room in the windows. Checked at every delivery, so nothing is recorded for it.
    if (effect.name === "void-charges" && event.resource !== null && (await transactionConfirmed(deps.db, event.resource))) {
      return ok("transaction-confirmed");
    }
    await effect.run(deps);
    await recordEffectCompleted(deps.db, event.id, effect.name, deps.now());
    return ok("applied");
  } catch (cause) {
    // The event row stays; answering 5xx makes the platform redeliver, and the redelivery retries.
    return err(new AppError("UNAVAILABLE", "The event was stored but its effect failed; deliver it again", { cause }));
  }
}

/** SQLSTATE class 22 (data exception): the value itself is refused. */
function isDataException(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("22");
}
