/**
 * A service on a fresh database that takes the platform's signed events (COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE),
 * with a co-signer simulator, for one describe block; and the policy the void and
 * confirmation suites share: at most 100 ETH a day from one wallet.
 */
import { afterAll, beforeAll } from "vitest";
import { CosignerSimulator } from "./cosigner.js";
import { eventKeys } from "./event-sender.js";
import { createTestDatabase, type TestDatabase } from "./postgres.js";
import { writeTempPem } from "./service-account.js";
import { startTestService, writeBundle } from "./service.js";

export interface EventsService {
  tdb: TestDatabase;
  service: Awaited<ReturnType<typeof startTestService>>;
  cosigner: CosignerSimulator;
}

/** Started before the block's tests, stopped after them; the fields are set once started. */
export function serviceWithEvents(policy: string, options: { clock?: () => Date } = {}): EventsService {
  const suite = {} as EventsService;
  let keyFile: { path: string; remove(): void } | undefined;
  beforeAll(async () => {
    suite.tdb = await createTestDatabase();
    keyFile = writeTempPem((await eventKeys()).platform.publicKeyPem, "events-public.pem");
    suite.service = await startTestService({ database: suite.tdb.handle, policiesDir: writeBundle(policy), env: { COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE: keyFile.path }, ...options });
    suite.cosigner = new CosignerSimulator({ webhookUrl: `${suite.service.url}/v1/cosigner/webhook` });
  });
  afterAll(async () => {
    await suite.service?.stop();
    await suite.tdb?.drop();
    keyFile?.remove();
  });
  return suite;
}

export const dailyLimitPolicy = (version: string) => `
version: "${version}"
default: deny
windows:
  - {name: daily_out, duration: 24h, groupBy: [sourceWallet, asset], measure: amount}
rules:
  - id: daily-limit
    decision: deny
    reason: At most 100 ETH a day from one wallet
    when: {">": [{"var": "velocity.daily_out.amountAfter"}, "100"]}
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;
