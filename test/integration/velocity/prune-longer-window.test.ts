/**
 * A window longer than the fine buckets are kept, in a bundle another replica runs (a rollout, a
 * replica whose reload lags) or loaded after pruning ran, reads its oldest partial day from the
 * charges (src/velocity/window-plan.ts), not from minute and hour buckets the pruner deletes
 * (the pruner kept them for its own bundle's longest window, and a
 * 60-day window lost the spend of its first day, so 20 left a wallet against a limit of 10).
 *
 * Sequence: replica A runs a 60 d window (limit 10). 60 d − 2 h ago 10 was charged. Replica B
 * (24 h window) wins the pruner's election and prunes with its own horizon. A is then asked for
 * another 10 from the same wallet: the 60 d total would be 20, so it is denied.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pruneHorizon, pruneLedger } from "../../../src/velocity/prune.js";
import { assetTransfer, transactionName, VAULT } from "../../support/bodies.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService, writeBundle } from "../../support/service.js";

const POLICY_60D = `
version: "prune-longer-window.1"
default: deny
windows:
  - {name: w60, duration: 60d, groupBy: [sourceWallet, asset], measure: amount}
rules:
  - id: limit
    decision: deny
    reason: At most 10 in 60 days
    when: {">": [{"var": "velocity.w60.amountAfter"}, "10"]}
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;
const DAY = 86_400_000;

describe("the pruner of a replica with a shorter window, and a 60 d window", () => {
  let tdb: TestDatabase;
  let now = new Date();
  let service: Awaited<ReturnType<typeof startTestService>>;
  beforeAll(async () => {
    tdb = await createTestDatabase();
    service = await startTestService({ database: tdb.handle, policiesDir: writeBundle(POLICY_60D), clock: () => now });
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  it("a transfer in the 60 d window's first partial day still counts after another replica's pruner ran", async () => {
    const realNow = Date.now();
    const wallet = `${VAULT}/wallets/quarterly`;
    const cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
    // 60 d − 2 h ago: inside the window read at realNow, in its first partial day (read from hour buckets).
    now = new Date(realNow - 60 * DAY + 2 * 3_600_000);
    const first = await cosigner.deliver(assetTransfer({ name: transactionName("old"), amount: "10", source: wallet }));
    expect(first.verdict).toBe("signed");
    now = new Date(realNow);
    // Control: before pruning, a second 10 is denied.
    const control = await cosigner.deliver(assetTransfer({ name: transactionName("ctl"), amount: "10", source: wallet }));
    expect(control.verdict).toBe("canceled");
    // Replica B (bundle with a 24 h window; default 400 d retention) runs the pruner.
    const result = await pruneLedger(tdb.handle.db, pruneHorizon(new Date(realNow), 86_400, 400 * 86_400));
    expect(result.pruned).toBeGreaterThan(0); // the old charge's minute and hour buckets
    const second = await cosigner.deliver(assetTransfer({ name: transactionName("new"), amount: "10", source: wallet }));
    expect(second.verdict).toBe("canceled");
    expect((second.body as { reasons: string[] }).reasons).toContain("At most 10 in 60 days");
  });
});
