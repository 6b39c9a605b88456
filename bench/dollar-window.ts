/**
 * What a dollar window costs a decision: decide() in-process — prices, facts, locks, evaluation,
 * decision row and charges, committed — with the example bundle (its `measure: usd` window and the
 * rule reading it) and with the same bundle without them, on one database in one run. The two sides take
 * turns in blocks, so that whatever else the machine does falls on both; each runs for about
 * `seconds`. Prices come from pins: a platform price is kept up to a minute, so a decision reads
 * the same in-memory cache either way, and the figure is what the dollars add, not a network call.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { decide } from "../src/decision/decide.js";
import type { DecisionDeps } from "../src/decision/deps.js";
import { parseTransaction } from "../src/core/transaction/parse.js";
import type { BenchDatabase } from "./databases.js";
import { benchDecisionDeps, benchTransaction } from "./decision-latency.js";
import { summarize, type Summary } from "./stats.js";
import { writeBundle } from "./webhook-throughput.js";

const BLOCK = 200;

/** The example bundle without its dollar windows and the rules that read them. */
export function bundleWithoutDollarWindows(policies: string): string {
  type Window = { name: string; measure?: string };
  const doc = parse(readFileSync(path.join(policies, "policy.yaml"), "utf8")) as { windows?: Window[]; rules: { when: unknown }[]; version: string };
  const dollars = (doc.windows ?? []).filter((w) => w.measure === "usd").map((w) => w.name);
  doc.windows = (doc.windows ?? []).filter((w) => !dollars.includes(w.name));
  doc.rules = doc.rules.filter((r) => !dollars.some((name) => JSON.stringify(r.when).includes(`"velocity.${name}.`)));
  doc.version = `${doc.version}-no-dollar-window`;
  return writeBundle(doc);
}

export interface DollarFigures {
  without: Summary;
  with: Summary;
}

export async function benchDollarWindow(db: BenchDatabase, options: { policies: string; seconds: number }): Promise<DollarFigures> {
  const sides: { deps: DecisionDeps; samples: number[]; spentMs: number }[] = [bundleWithoutDollarWindows(options.policies), options.policies].map((p) => ({
    deps: benchDecisionDeps(db.handle.db, p),
    samples: [],
    spentMs: 0,
  }));
  let i = 0;
  const run = async (deps: DecisionDeps) => {
    const parsed = parseTransaction(benchTransaction(i++));
    if (!parsed.ok) throw parsed.error;
    const started = performance.now();
    const result = await decide(deps, parsed.value, "bench");
    const elapsed = performance.now() - started;
    if (result.kind !== "decided" || result.decision !== "allow") throw new Error(`unexpected result ${JSON.stringify(result)}`);
    return elapsed;
  };
  for (const side of sides) for (let n = 0; n < BLOCK; n++) await run(side.deps); // warm-up
  while (sides.some((s) => s.spentMs < options.seconds * 1000)) {
    for (const side of sides) {
      const started = performance.now();
      for (let n = 0; n < BLOCK; n++) side.samples.push(await run(side.deps));
      side.spentMs += performance.now() - started;
    }
  }
  return { without: summarize(sides[0]!.samples), with: summarize(sides[1]!.samples) };
}
