/**
 * The load generator, run as its own process so it does not share the service's event loop:
 * autocannon POSTs distinct co-signer deliveries (a fresh transaction name each) for a fixed time
 * and prints its result as JSON. Loopback only.
 */
import autocannon from "autocannon";
import { benchTransaction } from "./decision-latency.js";

const [url, seconds, connections] = process.argv.slice(2);
if (!url || !/^http:\/\/127\.0\.0\.1:[0-9]+\//.test(url)) throw new Error("usage: load-client http://127.0.0.1:PORT/... SECONDS CONNECTIONS");
let i = 0;
const result = await autocannon({
  url,
  duration: Number(seconds ?? 10),
  connections: Number(connections ?? 16),
  requests: [
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      setupRequest: (request) => ({ ...request, body: JSON.stringify(benchTransaction(i++)) }),
    },
  ],
});
process.stdout.write(
  JSON.stringify({
    requests: result.requests.total,
    perSecond: result.requests.average,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  }) + "\n",
);
