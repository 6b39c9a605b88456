/**
 * The low-level chain objects a body carries beside its transfers (`evmTransaction`,
 * `btcTransaction`, `aleoTransaction`), checked against the transfers. Whatever they do beyond the transfers is a
 * payload: calldata other than exactly the ERC-20 `transfer(to, amount)` a transfer describes is
 * `evmCalldata`; native value the transfers do not describe is `evmValue`; a Bitcoin output that is
 * neither change nor a listed transfer, change without its amount, or inputs without outputs is
 * `btcOutputs`, and an input without its address or amount is `btcInputs` (either would hide the
 * fee the miner takes); an Aleo operation not decoded is
 * `aleo:unknown`. A sender (chain-senders.ts) that is not the transfers' source is a contradiction (400).
 */
import { err, ok, type AppError, type Result } from "../errors.js";
import { sameAddress } from "../facts/addresses.js";
import { amountsAgree, knownDecimals, sameDecimal, transferMovesRaw } from "./amounts.js";
import { assetIdentity, assetStandardOf, networkFromAsset } from "./assets.js";
import { ALEO_OPERATIONS } from "./field-classes.js";
import { isPresent } from "./fields.js";
import { check, invalidAt } from "./issues.js";
import type { z } from "zod";
import { btcTransaction, evmTransaction } from "./schemas.js";
import { at, isRecord } from "./transfer.js";
import { chainSender } from "./chain-senders.js";
import type { ChainSender, ChangeOutput, Transfer } from "./types.js";

export interface ChainObjects {
  payloads: string[];
  /** Bitcoin outputs marked as change, for the facts to check against the vault's own addresses. */
  changeOutputs: ChangeOutput[];
  /** The account a chain object says pays (chain-senders.ts), whatever the transfers name as source. */
  sender: ChainSender | null;
  /** Bitcoin input addresses, for the facts to check against the source wallet's own addresses. */
  btcInputs: ChangeOutput[];
}

export function chainObjectPayloads(tx: Record<string, unknown>, transfers: readonly Transfer[], network: string | null, path: string): Result<ChainObjects, AppError> {
  const payloads: string[] = [];
  if (tx.evmTransaction != null) {
    const evm = evmPayloads(tx.evmTransaction, transfers, at(path, "evmTransaction"));
    if (!evm.ok) return evm;
    payloads.push(...evm.value);
  }
  const sender = chainSender(tx, transfers, path);
  if (!sender.ok) return sender;
  payloads.push(...aleoPayloads(tx.aleoTransaction));
  if (tx.btcTransaction == null) return ok({ payloads, changeOutputs: [], sender: sender.value, btcInputs: [] });
  const btc = btcPayloads(tx.btcTransaction, transfers, network, at(path, "btcTransaction"));
  if (!btc.ok) return btc;
  return ok({ ...btc.value, payloads: [...payloads, ...btc.value.payloads], sender: sender.value });
}

const EVM_NATIVE_DECIMALS = 18;

/** `transfer(address,uint256)` */
const ERC20_TRANSFER = "a9059cbb";
const WORD = 64;
const ADDRESS_WORD = /^0{24}([0-9a-f]{40})$/;
const EVM_CONTRACT = /^assets\/erc20\.[A-Za-z0-9_-]+\.(0x[0-9a-fA-F]{40})$/;

function evmPayloads(input: unknown, transfers: readonly Transfer[], path: string): Result<string[], AppError> {
  if (!isRecord(input)) return err(invalidAt(path, "must be an object"));
  const parsed = check(evmTransaction, input, path);
  if (!parsed.ok) return parsed;
  const evm = parsed.value;
  const data = (evm.data ?? "").replace(/^0x/, "").toLowerCase();
  const value = evm.value ?? null;
  const to = evm.toAddress?.value ?? null;
  const moved = value !== null && !sameDecimal(value, "0");
  if (data === "") return ok(moved ? (nativeTransfer(transfers, to, value) ? [] : ["evmValue"]) : emptyCall(transfers, to));
  const payloads: string[] = [];
  if (!tokenTransfer(transfers, to, data)) payloads.push("evmCalldata");
  if (moved) payloads.push("evmValue");
  return ok(payloads);
}

/**
 * A call without calldata or value: nothing when it names no recipient, or is the one transfer's
 * (a native transfer of 0); otherwise a call to `to` the transfers do not describe, which runs that
 * contract's code from the vault's wallet.
 */
function emptyCall(transfers: readonly Transfer[], to: string | null): string[] {
  return to === null || nativeTransfer(transfers, to, "0") ? [] : ["evmCalldata"];
}

/** The one transfer is this native coin transfer: to `to`, of `wei`. */
function nativeTransfer(transfers: readonly Transfer[], to: string | null, wei: string): boolean {
  const t = transfers.length === 1 ? transfers[0] : undefined;
  if (t === undefined || t.assetStandard !== "native" || to === null || t.destination.address === null) return false;
  if (!sameAddress(t.destination.address, to)) return false;
  // Every EVM network's native coin has 18 decimals. A coin known to have others (a lumen, a
  // bitcoin, a lamport's SOL) is not what an EVM value moves: matched at 18, 100 ether would be
  // judged as 100 lumens (found by a review). A native coin of unknown decimals is matched at 18
  // here and checked at its own when decided (unit-claims.ts, `evmValue`).
  const decimals = knownDecimals(t);
  if (decimals !== null && decimals !== EVM_NATIVE_DECIMALS) return false;
  return t.rawAmount !== null ? sameDecimal(t.rawAmount, wei) : t.amount !== null && amountsAgree(t.amount, wei, EVM_NATIVE_DECIMALS);
}

/** The calldata is exactly `transfer(destination, raw amount)` of the one transfer, sent to its token contract. */
function tokenTransfer(transfers: readonly Transfer[], to: string | null, data: string): boolean {
  const t = transfers.length === 1 ? transfers[0] : undefined;
  const contract = t === undefined ? undefined : EVM_CONTRACT.exec(t.asset)?.[1];
  if (t === undefined || contract === undefined || to === null || !sameAddress(contract, to)) return false;
  const call = erc20Transfer(data);
  if (call === null || t.destination.address === null || !sameAddress(call.recipient, t.destination.address)) return false;
  return transferMovesRaw(t, call.raw);
}

/** `transfer(recipient, raw)` decoded from calldata (hex, `0x` optional), or null when the calldata is anything else. */
function erc20Transfer(calldata: string): { recipient: string; raw: string } | null {
  const data = calldata.replace(/^0x/, "").toLowerCase();
  if (data.length !== 8 + 2 * WORD || !data.startsWith(ERC20_TRANSFER) || !/^[0-9a-f]*$/.test(data)) return null;
  const recipient = ADDRESS_WORD.exec(data.slice(8, 8 + WORD))?.[1];
  if (recipient === undefined) return null;
  return { recipient: `0x${recipient}`, raw: BigInt(`0x${data.slice(8 + WORD)}`).toString() };
}

/** The smallest-unit amount of an ERC-20 `transfer` calldata, or null when it is not one. */
export function erc20TransferRaw(calldata: string): string | null {
  return erc20Transfer(calldata)?.raw ?? null;
}

/**
 * An Aleo operation that holds none of the decoded operations (only its `program`, `transition`,
 * ...) is a call countersign cannot read: `aleo:unknown`. The decoded ones are payloads by the table.
 */
function aleoPayloads(input: unknown): string[] {
  const operations = isRecord(input) && Array.isArray(input.operations) ? input.operations : [];
  const undecoded = operations.some((op) => isRecord(op) && !ALEO_OPERATIONS.some((name) => isPresent(op[name])));
  return undecoded ? ["aleo:unknown"] : [];
}

/**
 * Every output pays one listed transfer or is marked as change, and every listed transfer is paid.
 * Change is only a mark here: its addresses go to the facts, which accept them only as the vault's own.
 */
function btcPayloads(input: unknown, transfers: readonly Transfer[], network: string | null, path: string): Result<Omit<ChainObjects, "sender">, AppError> {
  if (!isRecord(input)) return err(invalidAt(path, "must be an object"));
  const parsed = check(btcTransaction, input, path);
  if (!parsed.ok) return parsed;
  const onNetwork = transfers.map((t) => t.network).find((n) => n !== null) ?? network;
  const inputs = parsed.value.inputs ?? [];
  // An input that names no address cannot be shown to be the source wallet's. One that states no
  // amount can be worth any sum, and all of it beyond the outputs goes to the miner: the fee the
  // transaction pays (tx.fee, fee.ts) cannot be read, whatever fee the body states.
  const unshownInput = inputs.some((i) => (i.address?.value ?? null) === null || i.amount == null);
  const btcInputs = inputs.flatMap((i) => (i.address?.value ? [{ address: i.address.value, network: onNetwork }] : []));
  const outputs = parsed.value.outputs ?? [];
  // Inputs without the outputs: where their value goes beyond the transfers (change, or the miner) is
  // not shown. Outputs move the transaction's own coin (`asset`, when stated): transfers of another
  // asset (testnet coins beside a mainnet `asset`, a token) are not what they pay (found by a review).
  // An object that lists neither (`{}`, only a fee) moves nothing the transfers could be matched against.
  const describes = inputs.length > 0 || outputs.length > 0;
  const unshownOutputs = describes && (outputs.length === 0 || !sameCoin(transfers, parsed.value.asset ?? null));
  const outputsChecked = unshownOutputs ? { payloads: ["btcOutputs"], changeOutputs: [] } : btcOutputPayloads(outputs, transfers, onNetwork);
  return ok({ ...outputsChecked, payloads: unshownInput ? [...outputsChecked.payloads, "btcInputs"] : outputsChecked.payloads, btcInputs });
}

/** Every transfer is of a native coin, and of the Bitcoin object's `asset` when it states one. */
function sameCoin(transfers: readonly Transfer[], asset: string | null): boolean {
  const coin = asset === null ? null : assetIdentity(asset, assetStandardOf(asset), networkFromAsset(asset));
  return transfers.every((t) => t.assetStandard === "native" && (coin === null || assetIdentity(t.asset, t.assetStandard, t.network) === coin));
}

type BtcOutput = NonNullable<z.infer<typeof btcTransaction>["outputs"]>[number];

function btcOutputPayloads(outputs: readonly BtcOutput[], transfers: readonly Transfer[], onNetwork: string | null): { payloads: string[]; changeOutputs: ChangeOutput[] } {
  const changeOutputs: ChangeOutput[] = [];
  const unlisted = { payloads: ["btcOutputs"], changeOutputs: [] };
  if (outputs.length === 0) return { payloads: [], changeOutputs };
  const unpaid = new Set(transfers);
  for (const output of outputs) {
    const address = output.address?.value ?? null;
    if (output.change === true) {
      // Change whose address is not stated cannot be shown to stay in the vault; change whose
      // amount is not stated may be worth nothing, the rest of the inputs going to the miner.
      if (address === null || output.amount == null) return unlisted;
      changeOutputs.push({ address, network: onNetwork });
      continue;
    }
    const amount = output.amount ?? null;
    const paid = [...unpaid].find(
      (t) => address !== null && amount !== null && t.destination.address !== null && t.amount !== null &&
        t.destination.address === address && sameDecimal(t.amount, amount),
    );
    if (paid === undefined) return unlisted;
    unpaid.delete(paid);
  }
  return unpaid.size > 0 ? unlisted : { payloads: [], changeOutputs };
}
