/**
 * What routing the co-signer's webhook through express costs: the service built from a commit that
 * served it through express's dispatch (BENCH_EXPRESS_REF, built in a temporary worktree) against
 * this checkout, whose front hands it to the same handlers from node:http (src/http/front.ts), on
 * one durable Postgres server in one run. Each side is measured in two runs of BENCH_LOAD_SECONDS
 * (10 by default), in the order express, front, front, express, so that a drift of the machine
 * during the run weighs on both sides alike; each run has its warm-up (BENCH_WARMUP_SECONDS).
 *
 *   npx tsx bench/express-webhook.ts
 */
import path from "node:path";
import { serverTicks } from "./cpu-split.js";
import { openDurableServer } from "./durable-server.js";
import { cleanUpAll, cleanUpOnSignals } from "./processes.js";
import { buildCheckout, countersignRun, prepareBaseline, type ServiceFigure } from "./service-runs.js";
import { WARMUP_SECONDS } from "./webhook-throughput.js";
import { bundleWithoutDollarWindows } from "./dollar-window.js";

const ROOT = path.resolve(import.meta.dirname, "..");
/** Both sides decide with this checkout's example policy, so only the HTTP layer differs; without its dollar window, which would need prices passed to both. */
const EXAMPLE = path.join(ROOT, "policies");
/** The last commit whose webhook went through express's dispatch. */
const EXPRESS_REF = process.env.BENCH_EXPRESS_REF ?? "48973c9";
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
const CONNECTIONS = 16;
const WALLETS = 10_000;

interface Side {
  label: string;
  root: string;
  runs: ServiceFigure[];
}

async function main(): Promise<void> {
  cleanUpOnSignals();
  try {
    const server = await openDurableServer();
    try {
      const serverCpu = server.postmasterPid === null ? null : serverTicks(server.postmasterPid);
      const viaExpress = await prepareBaseline(ROOT, EXPRESS_REF);
      if (!viaExpress.ok) throw new Error(viaExpress.reason);
      await buildCheckout(ROOT);
      const policies = bundleWithoutDollarWindows(EXAMPLE);
      const sides: Side[] = [
        { label: `express (${viaExpress.commit.slice(0, 7)})`, root: viaExpress.root, runs: [] },
        { label: "front (this checkout)", root: ROOT, runs: [] },
      ];
      console.log(
        `webhook through express vs the front — ${server.label}, ${CONNECTIONS} connections, ${WALLETS.toLocaleString("en")} wallets, 2 × ${SECONDS} s per side (warm-up ${WARMUP_SECONDS} s each)`,
      );
      for (const side of [sides[0]!, sides[1]!, sides[1]!, sides[0]!]) {
        const run = await countersignRun({
          root: side.root,
          server: server.url,
          serverCpu,
          policies,
          seconds: SECONDS,
          connections: CONNECTIONS,
          wallets: WALLETS,
          label: side.label,
        });
        side.runs.push(run);
        console.log(
          `  ${side.label.padEnd(26)} ${run.perSecond.toFixed(0).padStart(6)} decisions/s   p99 ${run.latencyP99.toFixed(1)} ms   service cpu ${serviceCpuPerDecision(run)} ms per decision   non-2xx ${run.non2xx}${run.errors ? `   errors ${run.errors}` : ""}`,
        );
      }
      const [before, after] = sides.map(summary) as [Summary, Summary];
      for (const s of [before, after]) console.log(`${s.label.padEnd(28)} ${s.perSecond.toFixed(0).padStart(6)} decisions/s   p99 ${s.p99.toFixed(1)} ms (mean of the two runs)`);
      console.log(`front / express: ${(after.perSecond / before.perSecond).toFixed(3)} decisions/s, ${(after.p99 / before.p99).toFixed(3)} p99`);
    } finally {
      await server.stop();
    }
  } finally {
    await cleanUpAll();
  }
}

function serviceCpuPerDecision(run: ServiceFigure): string {
  const ms = run.cpu?.processMs?.service;
  return ms === undefined || run.requests === 0 ? "?" : (ms / run.requests).toFixed(3);
}

interface Summary {
  label: string;
  perSecond: number;
  p99: number;
}

function summary(side: Side): Summary {
  const mean = (pick: (r: ServiceFigure) => number) => side.runs.reduce((sum, r) => sum + pick(r), 0) / side.runs.length;
  return { label: side.label, perSecond: mean((r) => r.perSecond), p99: mean((r) => r.latencyP99) };
}

await main();
