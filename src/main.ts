/**
 * `countersign serve`: boot (config → database → policy → HTTP) and graceful shutdown. SIGTERM
 * and SIGINT stop accepting, drain in-flight decisions, then close the database; SIGHUP reloads
 * the policy bundle.
 */
import { ConfigError, loadConfig } from "./config.js";
import { createLogger, describeError } from "./log.js";
import { reloadPolicies, startService } from "./service.js";

export async function serve(): Promise<number> {
  const logger = createLogger();
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`countersign: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  process.on("unhandledRejection", (reason) => logger.error(describeError(reason), "unhandled rejection"));
  let service;
  try {
    service = await startService({ config, logger });
  } catch (error) {
    process.stderr.write(`countersign: cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  const running = service;
  process.on("SIGHUP", () => void reloadPolicies(running.policy, running.shadow));
  await new Promise<void>((resolve) => {
    const shutdown = (signal: string) => {
      logger.info({ signal }, "shutting down: no new connections; draining requests in flight");
      running.stop().then(resolve, (error) => {
        logger.error(describeError(error), "shutdown failed");
        resolve();
      });
    };
    process.once("SIGTERM", () => shutdown("SIGTERM"));
    process.once("SIGINT", () => shutdown("SIGINT"));
  });
  return 0;
}
