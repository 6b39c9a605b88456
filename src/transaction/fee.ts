/**
 * The network fee a transaction states, for the `tx.fee` fact: what it pays beside its transfers,
 * in whole units of the network's native asset. A fee leaves the wallet as surely as a transfer
 * does (a BTC transaction of 0.001 with 3 BTC of inputs and no change pays 2.999 to the miner), so
 * a policy must be able to cap it. Read, where the body states one, from:
 *
 * - `btcTransaction.fee` (BTC); when every output carries an amount, the inputs that state one less
 *   the outputs are the least the fee is (all of it when every input states one): a stated fee
 *   below that, or other than it, is refused (400), and with none stated that least is the fee;
 * - `evmTransaction.fee`: the most it can pay, `gasLimit` (21,000 when not stated) ×
 *   `maxFeePerGas` (EIP-1559) or × `gasPrice` (legacy), the higher when both are stated, in wei;
 *   a `maxPriorityFeePerGas` stated without them is the least it pays per gas (the maximum the
 *   platform then sets is at least that), so it is read as the price (until a review of repeats
 *   it was not read: a priority fee of 21 ETH for a transfer's gas was a null fee, and a
 *   redelivery raising it a repeat of the first allow);
 * - `solanaTransaction.fee` (lamports);
 * - `aleoTransaction`: `feeMicrocredits`, or the fee transition it signs (`feeOperation`: its
 *   `amountMicrocredits` and `priorityFeeMicrocredits` together) when that is higher. Only the
 *   total was read until a review of repeats: a fee transition paying 900,000 ALEO of priority fee
 *   beside `feeMicrocredits: "2500"` was judged a 0.0025 ALEO fee, and a redelivery raising only
 *   the priority fee was a repeat of the first allow;
 * - `suiTransaction.gasBudget`: the most it can pay, in MIST (`gasPrice` is checked, not read:
 *   whatever the price, the charge stops at the budget);
 * - `aptosTransaction`: the most it can pay, `maxGasAmount` × `gasUnitPrice`, in octas (one
 *   without the other states none);
 * - `tronTransaction.fee`: the SUN the platform states the transaction uses (`usedSun`), or the
 *   sum of the parts it breaks down into (`bandwidth.burned` and `energy.burned` in TRX, an
 *   `accountActivationFee.fee` in SUN) when that is higher. The OpenAPI names no fee limit for
 *   Tron: this is the platform's own figure, not a cap the chain enforces;
 * - a Stellar transaction's signed envelope (its fee, a fee bump's outer fee, in stroops), else
 *   `stellarTransaction.fee` (stellar-envelope.ts refuses a stated fee the envelope contradicts).
 *
 * The Sui, Aptos and Tron fees were not read until a review of hostile bodies: `tx.fee` was null
 * for them, no rule could cap them, and a redelivery raising a Sui gas budget a thousandfold was a
 * repeat of the first allow.
 *
 * The coin is the transaction's network's, or the network every transfer's asset names. Null when
 * the body states none (the platform then chooses it). The fee fields are delivery metadata in
 * the classification table (field-classes.ts), but the fee read from them is part of the content
 * digest (src/decision/content-digest.ts): a redelivery of a decided transaction that states
 * another fee is a conflicting snapshot, never a repeat of an allow given to a lower one.
 */
import Big from "big.js";
import { z } from "zod";
import { err, ok, type AppError, type Result } from "../errors.js";
import { networkId } from "./assets.js";
import { check, invalidAt } from "./issues.js";
import { decimalAmount, rawAmount } from "./schemas.js";
import { at, isRecord } from "./transfer.js";
import type { Fee } from "./types.js";

/** Exact decimals with a private configuration: never touch big.js's global settings. */
const Dec = Big();
Dec.strict = true;

/** A 256-bit quantity as the API writes gas prices: `0x` and up to 64 hex digits. */
const hexQuantity = z.string({ error: "must be a string" }).regex(/^0x[0-9a-fA-F]{1,64}$/, "must be 0x and hex digits");

const btcAmounts = z.object({
  fee: decimalAmount.nullish(),
  inputs: z.array(z.object({ amount: decimalAmount.nullish() }).passthrough()).nullish(),
  outputs: z.array(z.object({ amount: decimalAmount.nullish() }).passthrough()).nullish(),
  asset: z.unknown().optional(),
}).passthrough();

const suiFee = z.object({ gasBudget: rawAmount.nullish(), gasPrice: rawAmount.nullish() }).passthrough();
const aptosFee = z.object({ maxGasAmount: rawAmount.nullish(), gasUnitPrice: rawAmount.nullish() }).passthrough();
const tronBurned = z.object({ burned: decimalAmount.nullish() }).passthrough().nullish();
const tronFee = z.object({
  usedSun: rawAmount.nullish(),
  bandwidth: tronBurned,
  energy: tronBurned,
  accountActivationFee: z.object({ fee: rawAmount.nullish() }).passthrough().nullish(),
}).passthrough();

const aleoFee = z.object({
  feeMicrocredits: rawAmount.nullish(),
  feeOperation: z.object({ amountMicrocredits: rawAmount.nullish(), priorityFeeMicrocredits: rawAmount.nullish() }).passthrough().nullish(),
}).passthrough();

const evmFee = z.object({
  gasLimit: rawAmount.nullish(),
  maxFeePerGas: hexQuantity.nullish(),
  maxPriorityFeePerGas: hexQuantity.nullish(),
  gasPrice: hexQuantity.nullish(),
}).passthrough();

/** Wei per ether: every EVM network's native coin has 18 decimals. */
const EVM_DECIMALS = 18;
/** The gas of a plain transfer, the least an EVM transaction uses. */
const MIN_EVM_GAS = "21000";

/** MIST per SUI, octas per APT, SUN per TRX. */
const SUI_DECIMALS = 9;
const APTOS_DECIMALS = 8;
const TRON_DECIMALS = 6;
/** Microcredits per credit. */
const ALEO_DECIMALS = 6;

/** Stroops per lumen. */
const STELLAR_DECIMALS = 7;

/** Chain objects whose fee is a count of the native coin's smallest units, and its decimals. */
const SMALLEST_UNIT_FEES = [
  { object: "solanaTransaction", field: "fee", decimals: 9 }, // lamports
  { object: "stellarTransaction", field: "fee", decimals: STELLAR_DECIMALS }, // stroops
] as const;

/**
 * The fee the body states, or null; a malformed or contradictory one is a 400. `envelopeStroops`:
 * the fee of the Stellar envelope the shape decoded, if it decoded one.
 */
export function statedFee(snapshot: Record<string, unknown>, network: string | null, path: string, envelopeStroops?: string): Result<Fee | null, AppError> {
  const found: Fee[] = envelopeStroops === undefined ? [] : [inWholeUnits(envelopeStroops, STELLAR_DECIMALS, network)];
  if (isRecord(snapshot.btcTransaction)) {
    const btc = btcFee(snapshot.btcTransaction, network, at(path, "btcTransaction"));
    if (!btc.ok) return btc;
    if (btc.value !== null) found.push(btc.value);
  }
  if (isRecord(snapshot.evmTransaction) && snapshot.evmTransaction.fee != null) {
    const evm = evmMaxFee(snapshot.evmTransaction.fee, network, at(path, "evmTransaction.fee"));
    if (!evm.ok) return evm;
    if (evm.value !== null) found.push(evm.value);
  }
  for (const [object, read] of GAS_FEES) {
    const holder = snapshot[object];
    if (!isRecord(holder)) continue;
    const gas = read(object === "tronTransaction" ? holder.fee : holder, network, at(path, object === "tronTransaction" ? "tronTransaction.fee" : object));
    if (!gas.ok) return gas;
    if (gas.value !== null) found.push(gas.value);
  }
  for (const { object, field, decimals } of SMALLEST_UNIT_FEES) {
    const holder = snapshot[object];
    if (!isRecord(holder) || holder[field] == null) continue;
    // The envelope's fee is the one signed; a stated one was checked against it.
    if (object === "stellarTransaction" && envelopeStroops !== undefined) continue;
    const counted = check(rawAmount, holder[field], at(at(path, object), field));
    if (!counted.ok) return counted;
    found.push(inWholeUnits(counted.value, decimals, network));
  }
  if (found.length > 1) return err(invalidAt(path, "states a fee in more than one chain object"));
  return ok(found[0] ?? null);
}

function btcFee(btc: Record<string, unknown>, network: string | null, path: string): Result<Fee | null, AppError> {
  const parsed = check(btcAmounts, btc, path);
  if (!parsed.ok) return parsed;
  const { fee, inputs, outputs } = parsed.value;
  // The transaction's network names the coin; the object's own `asset` only when there is none.
  const asset = network !== null ? nativeAsset(network) : typeof btc.asset === "string" ? btc.asset : null;
  const everyAmount = (items: { amount?: string | null }[] | null | undefined): items is { amount: string }[] =>
    items != null && items.length > 0 && items.every((i) => typeof i.amount === "string");
  if (everyAmount(outputs) && inputs != null && inputs.length > 0) {
    const sum = (amounts: (string | null | undefined)[]) => amounts.reduce((total: Big, a) => (a == null ? total : total.plus(a)), new Dec("0"));
    const paid = sum(outputs.map((o) => o.amount));
    // Inputs whose amount is not stated only add to the fee: the stated ones less the outputs is its least.
    const least = sum(inputs.map((i) => i.amount)).minus(paid);
    if (everyAmount(inputs)) {
      if (least.lt("0")) return err(invalidAt(path, "its outputs add up to more than its inputs"));
      if (fee != null && !least.eq(fee)) return err(invalidAt(at(path, "fee"), "disagrees with its inputs less its outputs"));
      return ok({ asset, amount: least.toFixed() });
    }
    if (fee != null && least.gt(fee)) return err(invalidAt(at(path, "fee"), "is less than its inputs less its outputs"));
    if (fee == null && least.gt("0")) return ok({ asset, amount: least.toFixed() });
  }
  return ok(fee == null ? null : { asset, amount: new Dec(fee).toFixed() });
}

function evmMaxFee(value: unknown, network: string | null, path: string): Result<Fee | null, AppError> {
  const parsed = check(evmFee, value, path);
  if (!parsed.ok) return parsed;
  const { maxFeePerGas, maxPriorityFeePerGas, gasPrice, gasLimit } = parsed.value;
  // Without a price, the body does not say what the transaction may pay. With several stated, the
  // highest: which one the chain applies depends on the transaction's type, and a maximum fee per
  // gas is never below the priority fee (EIP-1559). Without a limit, the least any transaction
  // uses (21,000 gas): the fee is at least that.
  const prices = [maxFeePerGas, maxPriorityFeePerGas, gasPrice].filter((p): p is string => p != null).map((p) => BigInt(p));
  if (prices.length === 0) return ok(null);
  const price = prices.reduce((a, b) => (a > b ? a : b));
  const wei = BigInt(gasLimit ?? MIN_EVM_GAS) * price;
  return ok(inWholeUnits(wei.toString(), EVM_DECIMALS, network));
}

type GasFee = (value: unknown, network: string | null, path: string) => Result<Fee | null, AppError>;

/** Chain objects whose fee is read from more than one field, and how. */
const GAS_FEES: readonly (readonly [string, GasFee])[] = [
  ["suiTransaction", suiMaxFee],
  ["aptosTransaction", aptosMaxFee],
  ["tronTransaction", tronUsedFee],
  ["aleoTransaction", aleoPaidFee],
];

function suiMaxFee(value: unknown, network: string | null, path: string): Result<Fee | null, AppError> {
  const parsed = check(suiFee, value, path);
  if (!parsed.ok) return parsed;
  const { gasBudget } = parsed.value;
  return ok(gasBudget == null ? null : inWholeUnits(gasBudget, SUI_DECIMALS, network));
}

function aptosMaxFee(value: unknown, network: string | null, path: string): Result<Fee | null, AppError> {
  const parsed = check(aptosFee, value, path);
  if (!parsed.ok) return parsed;
  const { maxGasAmount, gasUnitPrice } = parsed.value;
  if (maxGasAmount == null || gasUnitPrice == null) return ok(null);
  return ok(inWholeUnits((BigInt(maxGasAmount) * BigInt(gasUnitPrice)).toString(), APTOS_DECIMALS, network));
}

function tronUsedFee(value: unknown, network: string | null, path: string): Result<Fee | null, AppError> {
  if (value == null) return ok(null);
  const parsed = check(tronFee, value, path);
  if (!parsed.ok) return parsed;
  const { usedSun, bandwidth, energy, accountActivationFee } = parsed.value;
  const sun = (amount: string) => new Dec(amount).div(new Dec("10").pow(TRON_DECIMALS));
  const parts = [bandwidth?.burned, energy?.burned].filter((a): a is string => a != null).map((a) => new Dec(a));
  if (accountActivationFee?.fee != null) parts.push(sun(accountActivationFee.fee));
  const readings = [...(usedSun == null ? [] : [sun(usedSun)]), ...(parts.length === 0 ? [] : [parts.reduce((a, b) => a.plus(b))])];
  if (readings.length === 0) return ok(null);
  // The higher reading: a fee stated two ways is capped by the larger.
  const highest = readings.reduce((a, b) => (a.gt(b) ? a : b));
  return ok({ asset: network === null ? null : nativeAsset(network), amount: highest.toFixed() });
}

/**
 * The higher of the stated total and the fee transition's base and priority fees: the transition
 * is what is signed, and a total that leaves its priority fee out must not hide it.
 */
function aleoPaidFee(value: unknown, network: string | null, path: string): Result<Fee | null, AppError> {
  const parsed = check(aleoFee, value, path);
  if (!parsed.ok) return parsed;
  const { feeMicrocredits, feeOperation } = parsed.value;
  const parts = [feeOperation?.amountMicrocredits, feeOperation?.priorityFeeMicrocredits].filter((a): a is string => a != null);
  const readings = [...(feeMicrocredits == null ? [] : [BigInt(feeMicrocredits)]), ...(parts.length === 0 ? [] : [parts.reduce((a, b) => a + BigInt(b), 0n)])];
  if (readings.length === 0) return ok(null);
  const highest = readings.reduce((a, b) => (a > b ? a : b));
  return ok(inWholeUnits(highest.toString(), ALEO_DECIMALS, network));
}

function inWholeUnits(smallest: string, decimals: number, network: string | null): Fee {
  // Dividing an integer by 10^decimals (at most 18) is exact within big.js's 20 places.
  return { asset: network === null ? null : nativeAsset(network), amount: new Dec(smallest).div(new Dec("10").pow(decimals)).toFixed() };
}

const nativeAsset = (network: string): string => `assets/native.${networkId(network)}`;
