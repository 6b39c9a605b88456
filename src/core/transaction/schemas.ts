/**
 * zod schemas of the fields countersign reads from a webhook body (docs/interface.md section 1). They
 * validate; they do not shape the snapshot, which is kept exactly as received. Every field read is
 * typed and bounded: a present field of the wrong type is refused rather than silently dropped, and
 * no error message carries the offending value.
 */
import { z } from "zod";
import { isNetworkName, isUserName } from "./resource-names.js";

export const LIMITS = {
  /** Resource names, addresses, asset ids, enum-like strings. */
  identifier: 512,
  /** Free text (`note`). */
  text: 10_000,
  /** Transfers in `transfers[]`, destinations of a batch. */
  transfers: 1000,
  /** A Stellar transaction holds at most 100 operations. */
  stellarOperations: 100,
  designatedSigners: 100,
  /** Digits on either side of the decimal point: 78 holds any 256-bit integer. */
  digits: 78,
} as const;

const DECIMAL = new RegExp(`^[0-9]{1,${LIMITS.digits}}(\\.[0-9]{1,${LIMITS.digits}})?$`);
const INTEGER = new RegExp(`^[0-9]{1,${LIMITS.digits}}$`);

const requiredString = () => z.string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") });

/** A resource name, address or asset id: a non-empty string of bounded length. */
export const identifier = requiredString().min(1, "must not be empty").max(LIMITS.identifier, `must be at most ${LIMITS.identifier} characters`);

/** Optional, but when present (and not null) it must be a bounded string. */
export const optionalIdentifier = identifier.nullish();
export const optionalText = requiredString().max(LIMITS.text, `must be at most ${LIMITS.text} characters`).nullish();

/** Whole units: a plain non-negative decimal in a JSON string (a JSON number loses precision). */
export const decimalAmount = requiredString().regex(DECIMAL, "must be a plain non-negative decimal string");
/** Smallest units: a plain non-negative integer in a JSON string. */
export const rawAmount = requiredString().regex(INTEGER, "must be a plain non-negative integer string");

/** `networks/{network_id}` */
const networkName = identifier.refine(isNetworkName, "must be a network resource name networks/{network_id}");
/** `users/{email}` or `users/{id}` */
const userName = identifier.refine(isUserName, "must be a user resource name users/{user}");

const object = <T extends z.core.$ZodLooseShape>(shape: T) => z.object(shape, { error: (issue) => (issue.input === undefined ? "is required" : "must be an object") });

/** An object whose own keys are read afterwards (`details`, an operation `body`): unknown keys kept. */
const keyedObject = () => z.looseObject({}, { error: (issue) => (issue.input === undefined ? "is required" : "must be an object") });

const list = <T extends z.ZodType>(item: T, max: number) =>
  z.array(item, { error: (issue) => (issue.input === undefined ? "is required" : "must be an array") }).max(max, `must hold at most ${max} items`);

/** Fields common to both shapes; `name` is checked on its own (a bad name is not a transaction). */
export const commonFields = object({
  type: optionalIdentifier,
  subType: optionalIdentifier,
  state: optionalIdentifier,
  network: networkName.nullish(),
  note: optionalText,
  externalId: optionalIdentifier,
  requestId: optionalIdentifier,
  designatedSigners: list(userName, LIMITS.designatedSigners).nullish(),
  request: object({
    initiator: userName.nullish(),
    sourceWallet: optionalIdentifier,
    externalId: optionalIdentifier,
  }).nullish(),
  details: keyedObject().nullish(),
  transfers: list(z.unknown(), LIMITS.transfers).nullish(),
});
export type CommonFields = z.infer<typeof commonFields>;

// ---- shape 1: `details.*` as the reference describes them ----

export const assetTransfer = object({
  asset: identifier,
  amount: decimalAmount,
  source: identifier,
  destination: identifier,
  sponsor: optionalIdentifier,
});

export const assetBatchTransfer = object({
  asset: identifier,
  source: identifier,
  sponsor: optionalIdentifier,
  destinations: list(object({ destination: identifier, amount: decimalAmount, note: optionalText }), LIMITS.transfers).min(1, "must hold at least one destination"),
});

export const stellarPayment = object({ destinationAddress: identifier, asset: identifier, rawAmount });

export const sep41Payment = object({
  destinationAddress: identifier,
  sourceAddress: optionalIdentifier,
  contractAddress: identifier,
  rawAmount,
});

export const stellarTransaction = object({
  network: networkName,
  sourceAddress: identifier,
  operations: list(object({ sourceAccountAddress: identifier, body: keyedObject() }), LIMITS.stellarOperations).min(1, "must hold at least one operation"),
  /** The signed envelope, base64 XDR, when the body carries it (stellar-xdr.ts decodes it). */
  rawXdrEnvelope: z.string({ error: "must be a string" }).nullish(),
});

// ---- shape 2: the API's GetTransaction object ----

/** An address as the API writes it, `{value, infoRef}`: only the value is read. */
const apiAddress = object({ value: identifier });
export const optionalApiAddress = object({ value: optionalIdentifier }).nullish();

export const apiTransfer = object({
  sourceAddress: optionalApiAddress,
  destinationAddress: apiAddress,
  amount: decimalAmount.nullish(),
  rawAmount: rawAmount.nullish(),
  asset: identifier,
});

export const apiStellarTransaction = object({
  sourceAccountAddress: optionalApiAddress,
  operations: list(
    object({ sourceAccountAddress: optionalApiAddress, rawBody: z.string({ error: "must be a string" }).nullish(), decodedBody: keyedObject().nullish() }),
    LIMITS.stellarOperations,
  ).nullish(),
  /** Checked against the envelope only (stellar-envelope.ts): not read otherwise. */
  fee: z.unknown().optional(),
  memo: z.unknown().optional(),
  /** The signed envelope, base64 XDR (stellar-xdr.ts decodes it). */
  rawXdrEnvelope: z.string({ error: "must be a string" }).nullish(),
});

/** A decoded classic payment: `amount` is in stroops (the API's own example: `10000000` is 1 XLM). */
export const apiStellarPayment = object({ destinationAddress: apiAddress, asset: identifier, amount: rawAmount });

export const apiSep41Payment = object({
  destinationAddress: apiAddress,
  sourceAddress: optionalApiAddress,
  spenderAddress: optionalApiAddress,
  contractAddress: identifier,
  rawAmount,
});

const HEX = /^(0x)?([0-9a-fA-F]{2})*$/;

export const evmTransaction = object({
  fromAddress: optionalApiAddress,
  toAddress: optionalApiAddress,
  /** Wei. */
  value: rawAmount.nullish(),
  data: requiredString().max(2_000_000, "is too long").regex(HEX, "must be hex bytes").nullish(),
  authorizationDetails: object({
    authorizationList: list(
      object({
        signer: optionalApiAddress,
        contractAddress: optionalApiAddress,
        chainId: optionalIdentifier,
        nonce: optionalIdentifier,
      }),
      LIMITS.transfers,
    ).nullish(),
  }).nullish(),
});

/** An `evmAccountDelegation` object as the API returns it (the kind's own authorization). */
export const apiDelegation = object({
  signerAddress: optionalApiAddress,
  contractAddress: optionalApiAddress,
  chainId: optionalIdentifier,
  nonce: optionalIdentifier,
});

/** `details.evmAccountDelegation` as InitiateTransaction takes it. */
export const referenceDelegation = object({
  fromAddress: optionalIdentifier,
  contractAddress: optionalIdentifier,
  chainId: optionalIdentifier,
  nonce: optionalIdentifier,
});

export const tokenAllowances = list(
  object({
    approverAddress: optionalApiAddress,
    spenderAddress: optionalApiAddress,
    asset: optionalIdentifier,
    amount: decimalAmount.nullish(),
  }),
  LIMITS.transfers,
).nullish();

export const btcTransaction = object({
  inputs: list(object({ address: optionalApiAddress, amount: decimalAmount.nullish() }), LIMITS.transfers).nullish(),
  outputs: list(object({ address: optionalApiAddress, amount: decimalAmount.nullish(), change: z.boolean().nullish() }), LIMITS.transfers).nullish(),
  asset: optionalIdentifier,
});
