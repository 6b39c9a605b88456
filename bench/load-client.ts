/**
 * The load generator, run as its own process so it does not share the service's event loop:
 * autocannon POSTs distinct co-signer deliveries (a fresh transaction name each, source wallets
 * spread over WALLETS) for a fixed time and prints its result as JSON. Every response's latency
 * is kept (autocannon's own histogram rounds to whole milliseconds), so the percentiles are exact;
 * its own CPU time is reported, since it shares the machine with what it measures.
 * Loopback only.
 */
import autocannon from "autocannon";
import { benchTransaction } from "./decision-latency.js";
import { percentile } from "./stats.js";

const [url, seconds, connections, wallets] = process.argv.slice(2);
if (!url || !/^http:\/\/127\.0\.0\.1:[0-9]+\//.test(url)) throw new Error("usage: load-client http://127.0.0.1:PORT/... SECONDS CONNECTIONS [WALLETS]");
const walletCount = Number(wallets ?? 10_000);
let i = 0;
const latencies: number[] = [];
const instance = autocannon({
  url,
  duration: Number(seconds ?? 10),
  connections: Number(connections ?? 16),
  requests: [
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      setupRequest: (request) => ({ ...request, body: JSON.stringify(benchTransaction(i++, walletCount)) }),
    },
  ],
});
instance.on("response", (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
const cpuAtStart = process.cpuUsage();
const result = await instance;
const cpu = process.cpuUsage(cpuAtStart);
latencies.sort((a, b) => a - b);
process.stdout.write(
  JSON.stringify({
    requests: result.requests.total,
    // over the whole run (autocannon's `average` is a mean of per-second buckets)
    perSecond: result.requests.total / result.duration,
    latencyP50: percentile(latencies, 0.5),
    latencyP99: percentile(latencies, 0.99),
    latencyP999: percentile(latencies, 0.999),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    // this process's CPU time while it sent load (its start-up not included)
    clientCpuMs: (cpu.user + cpu.system) / 1000,
  }) + "\n",
);
