// autocannon ships no types; the part the load client uses.
declare module "autocannon" {
  interface Request {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: Request) => Request;
  }
  interface Result {
    requests: { total: number; average: number };
    /** Seconds the run lasted. */
    duration: number;
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  }
  /** The running load: a promise of its result that also reports each response (latency in ms, fractional). */
  interface Instance extends PromiseLike<Result> {
    on(event: "response", listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): this;
  }
  function autocannon(options: { url: string; duration: number; connections: number; requests: Request[] }): Instance;
  export default autocannon;
}
