/**
 * An `evmTransaction` against the transfers: calldata other than exactly the ERC-20
 * `transfer(to, amount)` a transfer describes is the payload `evmCalldata`; native value the
 * transfers do not describe is `evmValue`.
 */
import { err, ok, type AppError, type Result } from "../../errors.js";
import { amountsAgree, knownDecimals, sameDecimal, transferMovesRaw } from "../../transaction/amounts.js";
import { check, invalidAt } from "../../transaction/issues.js";
import { evmTransaction } from "../../transaction/schemas.js";
import { at, isRecord } from "../../transaction/transfer.js";
import type { Transfer } from "../../transaction/types.js";
import { sameAddress } from "../accounts.js";
import type { ObjectReading, OtherFamilies, StatedSmallestUnits } from "../family.js";
import { EVM_DECIMALS } from "./networks.js";

/** `transfer(address,uint256)` */
const ERC20_TRANSFER = "a9059cbb";
const WORD = 64;
const ADDRESS_WORD = /^0{24}([0-9a-f]{40})$/;
const EVM_CONTRACT = /^assets\/erc20\.[A-Za-z0-9_-]+\.(0x[0-9a-fA-F]{40})$/;

export function evmObjects(
  tx: Record<string, unknown>,
  transfers: readonly Transfer[],
  _network: string | null,
  path: string,
  others: OtherFamilies,
): Result<ObjectReading, AppError> {
  if (tx.evmTransaction == null) return ok({ payloads: [] });
  const payloads = evmPayloads(tx.evmTransaction, transfers, at(path, "evmTransaction"), others);
  return payloads.ok ? ok({ payloads: payloads.value }) : payloads;
}

function evmPayloads(input: unknown, transfers: readonly Transfer[], path: string, others: OtherFamilies): Result<string[], AppError> {
  if (!isRecord(input)) return err(invalidAt(path, "must be an object"));
  const parsed = check(evmTransaction, input, path);
  if (!parsed.ok) return parsed;
  const evm = parsed.value;
  const data = (evm.data ?? "").replace(/^0x/, "").toLowerCase();
  const value = evm.value ?? null;
  const to = evm.toAddress?.value ?? null;
  const moved = value !== null && !sameDecimal(value, "0");
  if (data === "") return ok(moved ? (nativeTransfer(transfers, to, value, others) ? [] : ["evmValue"]) : emptyCall(transfers, to, others));
  const payloads: string[] = [];
  if (!tokenTransfer(transfers, to, data, others)) payloads.push("evmCalldata");
  if (moved) payloads.push("evmValue");
  return ok(payloads);
}

/**
 * A call without calldata or value: nothing when it names no recipient, or is the one transfer's
 * (a native transfer of 0); otherwise a call to `to` the transfers do not describe, which runs that
 * contract's code from the vault's wallet.
 */
function emptyCall(transfers: readonly Transfer[], to: string | null, others: OtherFamilies): string[] {
  return to === null || nativeTransfer(transfers, to, "0", others) ? [] : ["evmCalldata"];
}

/** The one transfer is this native coin transfer: to `to`, of `wei`. */
function nativeTransfer(transfers: readonly Transfer[], to: string | null, wei: string, others: OtherFamilies): boolean {
  const t = transfers.length === 1 ? transfers[0] : undefined;
  if (t === undefined || t.assetStandard !== "native" || to === null || t.destination.address === null) return false;
  if (!sameAddress(t.destination.address, to)) return false;
  // A coin known to have other decimals (a lumen, a bitcoin, a lamport's SOL) is not what an EVM
  // value moves: matched at 18, 100 ether would be judged as 100 lumens. A native coin of unknown
  // decimals is matched at 18 here and checked at its own when decided (unit-claims.ts, `evmValue`).
  const decimals = knownDecimals(t, others.nativeDecimalsOf);
  if (decimals !== null && decimals !== EVM_DECIMALS) return false;
  return t.rawAmount !== null ? sameDecimal(t.rawAmount, wei) : t.amount !== null && amountsAgree(t.amount, wei, EVM_DECIMALS);
}

/** The calldata is exactly `transfer(destination, raw amount)` of the one transfer, sent to its token contract. */
function tokenTransfer(transfers: readonly Transfer[], to: string | null, data: string, others: OtherFamilies): boolean {
  const t = transfers.length === 1 ? transfers[0] : undefined;
  const contract = t === undefined ? undefined : EVM_CONTRACT.exec(t.asset)?.[1];
  if (t === undefined || contract === undefined || to === null || !sameAddress(contract, to)) return false;
  const call = erc20Transfer(data);
  if (call === null || t.destination.address === null || !sameAddress(call.recipient, t.destination.address)) return false;
  return transferMovesRaw(t, call.raw, others.nativeDecimalsOf);
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
 * The smallest units an `evmTransaction` states for the body's one transfer: the amount word of its
 * ERC-20 `transfer` calldata, else the wei it sends without calldata; none from what the parser
 * made a payload (`evmCalldata`, `evmValue`).
 */
export function evmStatedSmallestUnits(snapshot: Record<string, unknown>, payloads: readonly string[]): StatedSmallestUnits[] {
  const evm = snapshot.evmTransaction;
  if (!isRecord(evm) || payloads.includes("evmCalldata")) return [];
  const calldataRaw = typeof evm.data === "string" ? erc20TransferRaw(evm.data) : null;
  if (calldataRaw !== null) return [{ raw: calldataRaw, statedBy: "evmCalldata", nativeOnly: false }];
  const wei = payloads.includes("evmValue") ? null : weiWithoutCalldata(evm);
  return wei === null ? [] : [{ raw: wei, statedBy: "evmValue", nativeOnly: true }];
}

/** The wei an `evmTransaction` without calldata sends, or null when it sends none or carries calldata. */
function weiWithoutCalldata(evm: Record<string, unknown>): string | null {
  if (typeof evm.value !== "string" || !/^[0-9]+$/.test(evm.value) || /^0+$/.test(evm.value)) return null;
  const data = typeof evm.data === "string" ? evm.data.replace(/^0x/, "") : "";
  return data === "" ? evm.value : null;
}
