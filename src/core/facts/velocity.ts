/**
 * velocity.<window>.* facts: approved totals of the transfer's group before this transaction,
 * and the same with this transfer and the earlier transfers of this transaction in that group
 * added, so that splitting a payment into several transfers of one transaction cannot slip under
 * a limit. A `usd` window sums each transfer's `transfer.usd` across assets. Exact decimals
 * (big.js); nothing here is ever rounded.
 */
import Big from "big.js";
import type { WindowSpec } from "../policy/types.js";
import { groupKey, type GroupingTx } from "./group-keys.js";
import type { TransferFacts, WindowFacts, WindowTotal, WindowTotals } from "./types.js";

/** A private big.js configuration: strict (no JS numbers in), the global one left alone. */
const Dec = Big();
Dec.strict = true;

const TOTAL_AMOUNT = /^[0-9]+(\.[0-9]+)?$/;
const ZERO: WindowTotal = { amount: "0", count: 0 };

/** Running sums of this transaction per group key. A null amount or usd: some transfer's is unknown. */
interface Running {
  amount: Big | null;
  usd: Big | null;
  count: number;
}

export function velocityFacts(windows: readonly WindowSpec[], tx: GroupingTx, transfers: readonly TransferFacts[], totals: WindowTotals): Record<string, WindowFacts>[] {
  const running = new Map<string, Running>();
  return transfers.map((transfer) => {
    const keyed = windows.map((w) => ({ window: w, key: groupKey(w, tx, transfer) }));
    // Once per distinct group, however many windows share it.
    for (const key of new Set(keyed.map((k) => k.key))) running.set(key, add(running.get(key), transfer));
    return Object.fromEntries(
      keyed.map(({ window, key }) => [window.name, windowFacts(window, totals.get(window.name)?.get(key) ?? ZERO, running.get(key) ?? { amount: null, usd: null, count: 0 })]),
    );
  });
}

function add(sum: Running | undefined, transfer: TransferFacts): Running {
  const before = sum ?? { amount: new Dec("0"), usd: new Dec("0"), count: 0 };
  const amount = before.amount === null || transfer.amount === null ? null : before.amount.plus(transfer.amount);
  const usd = before.usd === null || transfer.usd === null ? null : before.usd.plus(transfer.usd);
  return { amount, usd, count: before.count + 1 };
}

function windowFacts(window: WindowSpec, before: WindowTotal, inTx: Running): WindowFacts {
  checkTotal(window, before);
  const countAfter = before.count + inTx.count;
  if (window.measure === "count") return { count: before.count, countAfter };
  if (window.measure === "usd") {
    const usd = new Dec(before.usd ?? "0");
    return { usd: usd.toFixed(), count: before.count, usdAfter: inTx.usd === null ? null : usd.plus(inTx.usd).toFixed(), countAfter };
  }
  const amount = new Dec(before.amount);
  return {
    amount: amount.toFixed(),
    count: before.count,
    amountAfter: inTx.amount === null ? null : amount.plus(inTx.amount).toFixed(),
    countAfter,
  };
}

/** Totals come from our own database; a corrupt one is an internal error (the caller defers). */
function checkTotal(window: WindowSpec, total: WindowTotal): void {
  const usdOk = total.usd === undefined || TOTAL_AMOUNT.test(total.usd);
  if (!TOTAL_AMOUNT.test(total.amount) || !usdOk || !Number.isSafeInteger(total.count) || total.count < 0) {
    throw new Error(`velocity total for window ${window.name} is not a non-negative decimal and count`);
  }
}
