/**
 * Test support: real Stellar transaction envelopes, built and signed with the network's own library,
 * and the bodies that carry them in both shapes (reference `details.stellarTransaction`, API
 * `stellarTransaction`) with decoded operations that agree with them unless a test says otherwise.
 */
import { Account, Address, Asset, Keypair, Memo, nativeToScVal, Networks, Operation, TransactionBuilder, xdr } from "@stellar/stellar-base";
import { STELLAR_USDC, TX_NAME, type Body } from "./test-bodies.js";

const keypair = (n: number) => Keypair.fromRawEd25519Seed(Buffer.alloc(32, n));
export const SPONSOR_KEY = keypair(1);
export const SENDER_KEY = keypair(2);
export const SPONSOR = SPONSOR_KEY.publicKey();
export const SENDER = SENDER_KEY.publicKey();
export const DEST = keypair(3).publicKey();
export const OTHER = keypair(4).publicKey();
export const USDC = new Asset("USDC", STELLAR_USDC.slice("USDC-".length));
/** A SEP-41 token contract address (any 32 bytes make a valid one). */
export const TOKEN = Address.contract(Buffer.alloc(32, 9)).toString();

/** A payment of `stroops` USDC from the sender (as its own operation source). */
export const payment = (stroops: string, destination = DEST, asset = USDC, source = SENDER): xdr.Operation =>
  Operation.payment({ source, destination, asset, amount: whole(stroops) });

/** A SEP-41 token call `fn(from, to|spender, amount…)` by the sender. */
export const tokenCall = (fn: "transfer" | "approve", to: string, stroops: string, from = SENDER): xdr.Operation =>
  Operation.invokeContractFunction({
    source: from,
    contract: TOKEN,
    function: fn,
    args: [
      new Address(from).toScVal(),
      new Address(to).toScVal(),
      nativeToScVal(BigInt(stroops), { type: "i128" }),
      ...(fn === "approve" ? [nativeToScVal(1000, { type: "u32" })] : []),
    ],
  });

/** Whole units from stroops (the builder takes decimal amounts; the XDR holds stroops). */
const whole = (stroops: string): string => (Number(stroops) / 1e7).toFixed(7);

export interface EnvelopeOptions {
  source?: string;
  feeBump?: boolean;
  v0?: boolean;
  memo?: Memo;
  /** Leave the signatures out (they do not change what is read, and signing is slow for properties). */
  unsigned?: boolean;
}

/** A signed envelope holding `operations`, base64 XDR: v1, its v0 form, or wrapped in a fee bump. */
export function envelope(operations: xdr.Operation[], options: EnvelopeOptions = {}): string {
  const builder = new TransactionBuilder(new Account(options.source ?? SPONSOR, "41"), { fee: "100", networkPassphrase: Networks.PUBLIC });
  for (const op of operations) builder.addOperation(op);
  if (options.memo) builder.addMemo(options.memo);
  const tx = builder.setTimeout(0).build();
  if (!options.unsigned) tx.sign(SPONSOR_KEY, SENDER_KEY);
  if (options.feeBump) {
    const bump = TransactionBuilder.buildFeeBumpTransaction(SPONSOR_KEY, "200", tx, Networks.PUBLIC);
    if (!options.unsigned) bump.sign(SPONSOR_KEY);
    return bump.toEnvelope().toXDR("base64");
  }
  if (!options.v0) return tx.toEnvelope().toXDR("base64");
  const v1 = tx.toEnvelope().v1().tx();
  const v0 = new xdr.TransactionV0({
    sourceAccountEd25519: v1.sourceAccount().ed25519(),
    fee: v1.fee(),
    seqNum: v1.seqNum(),
    timeBounds: null,
    memo: v1.memo(),
    operations: v1.operations(),
    ext: new xdr.TransactionV0Ext(0),
  });
  return xdr.TransactionEnvelope.envelopeTypeTxV0(new xdr.TransactionV0Envelope({ tx: v0, signatures: [] })).toXDR("base64");
}

/** A decoded USDC payment as the API writes it. */
export const decodedPayment = (stroops: string, destination = DEST, asset = STELLAR_USDC): Body => ({
  payment: { destinationAddress: { value: destination }, asset, amount: stroops },
});

/** Shape 2: `stellarTransaction` with `decodedBodies` (each from the sender), the envelope, and `transfers[]`. */
export function apiEnvelopeBody(decodedBodies: Body[] | null, rawXdrEnvelope: string, transfers: unknown[] = [], name = TX_NAME): Body {
  return {
    name,
    type: "TRANSACTION",
    subType: "TOKEN_TRANSFER",
    network: "networks/stellar-mainnet",
    transfers,
    stellarTransaction: {
      sourceAccountAddress: { value: SPONSOR },
      ...(decodedBodies === null ? {} : { operations: decodedBodies.map((decodedBody) => ({ sourceAccountAddress: { value: SENDER }, decodedBody })) }),
      rawXdrEnvelope,
    },
  };
}

/** A `transfers[]` entry for a USDC payment of `whole` units from the sender. */
export const listedTransfer = (wholeUnits: string, destination = DEST): Body => ({
  sourceAddress: { value: SENDER },
  destinationAddress: { value: destination },
  amount: wholeUnits,
  asset: `assets/asset.stellar-mainnet.${STELLAR_USDC}`,
});

/** Shape 1: `details.stellarTransaction` with operation `bodies` (each from the sender) and the envelope. */
export function referenceEnvelopeBody(bodies: Body[], rawXdrEnvelope: string, name = TX_NAME): Body {
  return {
    name,
    details: {
      stellarTransaction: {
        network: "networks/stellar-mainnet",
        sourceAddress: SPONSOR,
        operations: bodies.map((body) => ({ sourceAccountAddress: SENDER, body })),
        rawXdrEnvelope,
      },
    },
  };
}

/** A reference-shape USDC payment body. */
export const referencePayment = (stroops: string, destination = DEST): Body => ({
  payment: { destinationAddress: destination, asset: STELLAR_USDC, rawAmount: stroops },
});
