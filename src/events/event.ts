/**
 * The platform's event payload (custody API reference, "Events"). Unknown fields and unknown
 * event types are accepted and stored: the platform may add either at any time, and refusing
 * them would only make it retry for 24 hours. The fields countersign acts on are checked for the
 * types it acts on, so an effect never runs on a guess.
 */
import { z } from "zod";
import { AppError, err, ok, type Result } from "../core/errors.js";

const MAX_IDENTIFIER = 512;

const identifier = z.string().min(1).max(MAX_IDENTIFIER);
const VAULT_NAME = /^vaults\/[^/]+$/;
const TRANSACTION_NAME = /^vaults\/[^/]+\/transactions\/[^/]+$/;

/** Every event: what the OpenAPI document declares of a body (src/http/openapi.ts). */
export const baseEvent = z.looseObject({
  id: identifier,
  type: identifier,
  vault: identifier.nullish(),
  resourceType: identifier.nullish(),
  resource: identifier.nullish(),
  details: z.looseObject({}).nullish(),
});

const stateUpdate = z
  .looseObject({
    vault: identifier.nullish(),
    resource: identifier.regex(TRANSACTION_NAME),
    details: z.looseObject({
      transactionStateUpdated: z.looseObject({ newState: identifier }),
    }),
  })
  // An event names its vault and the transaction's name names it again: two vaults are a contradiction.
  .refine((e) => e.vault == null || e.resource.startsWith(`${e.vault}/transactions/`), { path: ["vault"] });

const walletChange = z.looseObject({ vault: identifier.regex(VAULT_NAME) });

export interface PlatformEvent {
  id: string;
  type: string;
  vault: string | null;
  resourceType: string | null;
  resource: string | null;
  details: Record<string, unknown> | null;
  /** For TRANSACTION_STATE_UPDATED only. */
  newState: string | null;
}

/** Parses a verified body. The error messages name the field, never echo its value. */
export function parseEvent(body: Buffer): Result<{ event: PlatformEvent; payload: unknown }> {
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString("utf8"));
  } catch {
    return err(new AppError("BAD_JSON", "The body is not valid JSON"));
  }
  const base = baseEvent.safeParse(payload);
  if (!base.success) return err(invalid(base.error));
  const checked = checkTypeFields(base.data.type, payload);
  if (!checked.ok) return checked;
  return ok({ event: toEvent(base.data, checked.value), payload });
}

/** The fields an effect reads, for the types that have one. */
function checkTypeFields(type: string, payload: unknown): Result<string | null> {
  if (type === "TRANSACTION_STATE_UPDATED") {
    const parsed = stateUpdate.safeParse(payload);
    if (!parsed.success) return err(invalid(parsed.error));
    return ok(parsed.data.details.transactionStateUpdated.newState);
  }
  if (type === "WALLET_CREATED" || type === "WALLET_ADDRESS_CREATED") {
    const parsed = walletChange.safeParse(payload);
    if (!parsed.success) return err(invalid(parsed.error));
  }
  return ok(null);
}

function toEvent(data: z.infer<typeof baseEvent>, newState: string | null): PlatformEvent {
  return {
    id: data.id,
    type: data.type,
    vault: data.vault ?? null,
    resourceType: data.resourceType ?? null,
    resource: data.resource ?? null,
    details: data.details ?? null,
    newState,
  };
}

function invalid(error: z.ZodError): AppError {
  const fields = [...new Set(error.issues.map((issue) => issue.path.join(".") || "(body)"))];
  return new AppError("INVALID_REQUEST", `The event is malformed: check ${fields.join(", ")}`, { details: { fields } });
}
