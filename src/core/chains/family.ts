/**
 * One chain family: what countersign knows of a family of networks that share accounts, a native
 * coin and chain objects. Every chain's knowledge lives in its folder under src/core/chains/ behind this
 * interface, and the registry (registry.ts) maps a network to its family; nothing outside src/core/chains/
 * knows one chain's spellings. Adding a chain is one folder and one line in the registry.
 */
import type { AppError, Result } from "../errors.js";
import type { NativeDecimals } from "../transaction/amounts.js";
import type { ShapeContext, ShapeResult } from "../transaction/shape.js";
import type { ChangeOutput, Fee, Transfer } from "../transaction/types.js";

/** An account read as its family writes it, or refused with the reason it cannot be compared. */
export type AccountReading = { ok: true; account: string } | { ok: false; reason: string };

/** A field of a chain object that names the account the signed transaction pays from. */
export interface SenderField {
  object: string;
  field: string;
  /** The chain, for reasons: `EVM`, `TON`, `Sui`, ... */
  chain: string;
  /** The account as the facts compare it, or null when `address` is not one of the chain's spellings. */
  account: (address: string) => string | null;
}

/** Reads the fee a chain object states (in whole units of the native coin), or null; a malformed one is a 400. */
export interface FeeReader {
  object: string;
  read: (snapshot: Record<string, unknown>, network: string | null, path: string) => Result<Fee | null, AppError>;
}

/** What a family's chain objects do beyond the transfers. */
export interface ObjectReading {
  payloads: string[];
  /** Outputs the body marks as change, for the facts to check against the vault's own addresses. */
  changeOutputs?: ChangeOutput[];
  /** Addresses the transaction spends from, for the facts to check against the source wallet's. */
  inputs?: ChangeOutput[];
}

/** What a family's checks may ask of the other families: handed in by the caller, since the registry imports every family. */
export interface OtherFamilies {
  nativeDecimalsOf: NativeDecimals;
}

/**
 * A transaction object of the family's own that states the transfers (Stellar's
 * `stellarTransaction`): where a body carries one, the transfers are read from it.
 */
export interface TransferObject {
  /** Its key: a top-level field of the API shape, a kind of the reference shape's `details`. */
  readonly key: string;
  /** The API shape: the object's transfers, reconciled with those `transfers[]` lists. */
  fromApi(object: unknown, listed: readonly Transfer[], ctx: ShapeContext, others: OtherFamilies): Result<ShapeResult, AppError>;
  /** The reference shape: `details.<key>`, at `path`. */
  fromDetails(object: unknown, path: string, ctx: ShapeContext): Result<ShapeResult, AppError>;
}

/** A smallest-unit amount a family's chain object states for a body's one transfer, beside its whole amount. */
export interface StatedSmallestUnits {
  raw: string;
  /** Where it is stated, as a unit claim records it (src/core/transaction/unit-claims.ts). */
  statedBy: "evmCalldata" | "evmValue";
  /** Stated only for the native coin (a value sent), never for a token. */
  nativeOnly: boolean;
}

export interface ChainFamily {
  /** `evm`, `bitcoin`, `stellar`, ... */
  readonly name: string;
  /** Network ids (lower case, without `networks/`) of the family. */
  readonly networks: RegExp;
  /** Decimals of the native coin, where the family's networks share them. */
  readonly nativeDecimals?: number;
  /** The account `address` names, as rules, the address book and the windows compare it, or why it is refused. */
  readAccount?(address: string): AccountReading;
  /** The fields of the family's chain objects that name the paying account. */
  readonly senders?: readonly SenderField[];
  /** The fees the family's chain objects state. */
  readonly fees?: readonly FeeReader[];
  /** Refuses a chain id or genesis hash in the body that contradicts any of `networks` (ids without `networks/`). */
  checkChainIds?(tx: Record<string, unknown>, networks: readonly string[], path: string): Result<void, AppError>;
  /** The family's chain objects, classified against the transfers into what they describe and payloads. */
  classifyObjects?(tx: Record<string, unknown>, transfers: readonly Transfer[], network: string | null, path: string, others: OtherFamilies): Result<ObjectReading, AppError>;
  /** The family's own transaction object that states the transfers, if it has one. */
  readonly transferObject?: TransferObject;
  /** The smallest-unit amounts the family's chain objects in `snapshot` state, unless the parser made them `payloads`. */
  readonly statedSmallestUnits?: (snapshot: Record<string, unknown>, payloads: readonly string[]) => StatedSmallestUnits[];
}

export const accepted = (account: string): AccountReading => ({ ok: true, account });
export const refused = (reason: string): AccountReading => ({ ok: false, reason });

/** An account reading that accepts what matches `pattern` as written and refuses the rest with `reason`. */
export const spelledAs =
  (pattern: RegExp, reason: string) =>
  (address: string): AccountReading =>
    pattern.test(address) ? accepted(address) : refused(reason);
