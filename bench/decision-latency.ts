/**
 * In-process decision latency: `decide()` — facts, locks, evaluation, decision row and charges,
 * committed — for distinct transactions, one after another, with the example policy (its three
 * velocity windows, one of them in dollars). No HTTP: this is the cost the service adds per decision.
 */
import { randomUUID } from "node:crypto";
import { notConfiguredView } from "../src/core/addressbook/types.js";
import type { Db } from "../src/database.js";
import { decide } from "../src/decision/decide.js";
import type { DecisionDeps } from "../src/decision/deps.js";
import { silentLogger } from "../src/log.js";
import { loadBundleSync } from "../src/policy/load.js";
import { parseTransaction } from "../src/core/transaction/parse.js";
import { exampleAssets } from "../test/support/example-bundle.js";
import type { BenchDatabase } from "./databases.js";
import { summarize, type Summary } from "./stats.js";

const VAULT = "vaults/bench";

/**
 * A distinct transfer from one of `wallets` hot wallets; its id ends in `_<wallet>`, so that the
 * bench's simulated custody API (platform-api.ts) can answer the same transaction for its name.
 */
export function benchTransaction(i: number, wallets = 10_000) {
  return benchTransactionNamed(`${VAULT}/transactions/${randomUUID().replaceAll("-", "")}_${i % wallets}`);
}

/** The transaction benchTransaction built under `name`. */
export function benchTransactionNamed(name: string) {
  const wallet = /_([0-9]+)$/.exec(name)?.[1] ?? "0";
  return {
    name,
    details: {
      assetTransfer: {
        asset: "assets/native.ethereum-mainnet",
        amount: "0.001",
        source: `${VAULT}/wallets/hot${wallet}`,
        destination: `${VAULT}/wallets/cold`,
      },
    },
  };
}

/**
 * What decide() needs to decide in this process: the bundle at `policies` (the example or a variant
 * of it), no address book, and the example's prices and decimals as `npm start` gives them.
 */
export function benchDecisionDeps(db: Db, policies: string): DecisionDeps {
  const loaded = loadBundleSync(policies);
  if (!loaded.ok) throw loaded.error;
  const bundle = loaded.value;
  return {
    db,
    policy: { current: () => bundle },
    addressBook: { viewFor: async (v) => notConfiguredView(v), staleReason: () => null },
    clock: () => new Date(),
    logger: silentLogger,
    ...exampleAssets(),
  };
}

export async function benchDecisionLatency(db: BenchDatabase, options: { decisions: number; policies: string }): Promise<Summary> {
  const deps = benchDecisionDeps(db.handle.db, options.policies);
  const run = async (i: number) => {
    const parsed = parseTransaction(benchTransaction(i));
    if (!parsed.ok) throw parsed.error;
    const started = performance.now();
    const result = await decide(deps, parsed.value, "bench");
    const elapsed = performance.now() - started;
    if (result.kind !== "decided" || result.decision !== "allow") throw new Error(`unexpected result ${JSON.stringify(result)}`);
    return elapsed;
  };
  for (let i = 0; i < 200; i++) await run(i); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < options.decisions; i++) samples.push(await run(i));
  return summarize(samples);
}
