/**
 * Starts the real service (src/service.ts) on 127.0.0.1:0 against a test database and a policy
 * bundle directory, as `countersign serve` would, with an injectable clock.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadConfig, type Config } from "../../src/config.js";
import type { DatabaseHandle } from "../../src/database.js";
import { silentLogger, type Logger } from "../../src/log.js";
import { startService, type Service } from "../../src/service.js";
import { afterAll, beforeAll } from "vitest";
import { CosignerSimulator } from "./cosigner.js";
import { EXAMPLE_POLICIES, EXAMPLES, exampleEnvFor } from "./example-bundle.js";
import { createTestDatabase, type TestDatabase } from "./postgres.js";
import { scratchDir } from "./scratch.js";

export { EXAMPLE_POLICIES, EXAMPLES } from "./example-bundle.js";

export interface TestServiceOptions {
  database?: DatabaseHandle;
  databaseUrl?: string;
  policiesDir?: string;
  env?: Record<string, string>;
  clock?: () => Date;
  /** The host's clock as the service's clock check reads it (src/db/clock-check.ts). */
  hostNow?: () => number;
  logger?: Logger;
}

export async function startTestService(options: TestServiceOptions): Promise<Service & { config: Readonly<Config> }> {
  const config = loadConfig({
    COUNTERSIGN_HOST: "127.0.0.1",
    COUNTERSIGN_PORT: "0",
    // The production budget (5 s) is a promise to the co-signer on a machine sized for it; a test
    // machine loaded by other suites can take longer than that for a decision that is not about
    // time, so the tests' default scales. Suites that test the deadline set their own.
    COUNTERSIGN_DECISION_TIMEOUT: "30s",
    COUNTERSIGN_POLICIES: options.policiesDir ?? EXAMPLE_POLICIES,
    ...exampleEnvFor(options.policiesDir ?? EXAMPLE_POLICIES),
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  });
  const service = await startService({
    config,
    logger: options.logger ?? silentLogger,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.hostNow ? { hostNow: options.hostNow } : {}),
    ...(options.database ? { database: options.database } : {}),
  });
  return { ...service, config };
}

/** A bundle directory written from a policy document (YAML or JSON text) and optional test files. */
export function writeBundle(policy: string, tests: Record<string, string> = {}): string {
  const dir = scratchDir("bundle");
  writeFileSync(path.join(dir, "policy.yaml"), policy);
  for (const [name, content] of Object.entries(tests)) {
    mkdirSync(path.join(dir, "tests"), { recursive: true });
    writeFileSync(path.join(dir, "tests", name), content);
  }
  return dir;
}

export function readExample(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(EXAMPLES, name), "utf8")) as Record<string, unknown>;
}

export interface PolicyService {
  tdb: TestDatabase;
  service: Awaited<ReturnType<typeof startTestService>>;
  cosigner: CosignerSimulator;
}

/**
 * A service on a fresh database with `policy`, and a co-signer simulator pointed at it, for one
 * describe block: started before its tests (the fields are set then), stopped after them.
 * `options` may be computed when the block starts (a key file written then); `cleanup` runs last.
 */
export function serviceWithPolicy(
  policy: string,
  options: Omit<TestServiceOptions, "database" | "policiesDir"> | (() => Promise<Omit<TestServiceOptions, "database" | "policiesDir">>) = {},
  cleanup: () => void = () => undefined,
): PolicyService {
  const suite = {} as PolicyService;
  beforeAll(async () => {
    suite.tdb = await createTestDatabase();
    const extra = typeof options === "function" ? await options() : options;
    suite.service = await startTestService({ ...extra, database: suite.tdb.handle, policiesDir: writeBundle(policy) });
    suite.cosigner = new CosignerSimulator({ webhookUrl: `${suite.service.url}/v1/cosigner/webhook` });
  });
  afterAll(async () => {
    await suite.service?.stop();
    await suite.tdb?.drop();
    cleanup();
  });
  return suite;
}
