import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Logger } from "../../../src/log.js";
import { assetTransfer } from "../../support/bodies.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService } from "../../support/service.js";

describe("an error no step of the webhook turned into an answer", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;
  const logged: { msg: string; fields: Record<string, unknown> }[] = [];
  let failNextDecisionLine = true;
  // The decision's log line is written after the decision is committed and before the answer: a
  // logger failing there is an error outside every step's own handling.
  const logger: Logger = {
    debug() {},
    warn() {},
    info(fields: Record<string, unknown>, msg: string) {
      if (msg === "decision" && failNextDecisionLine) {
        failNextDecisionLine = false;
        throw new Error("log sink gone: /var/log/secret-path");
      }
    },
    error(fields: Record<string, unknown>, msg: string) {
      logged.push({ msg, fields });
    },
  };

  beforeAll(async () => {
    tdb = await createTestDatabase();
    service = await startTestService({ database: tdb.handle, logger });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  it("defers (503 DEFERRED, Retry-After) without its detail, logs it, and the next poll gets the committed decision", async () => {
    const body = assetTransfer();
    const first = await cosigner.deliver(body);
    expect(first).toMatchObject({ verdict: "pending", status: 503 });
    expect(first.headers?.get("retry-after")).toMatch(/^[0-9]+$/);
    expect((first.body as { error: { code: string } }).error.code).toBe("DEFERRED");
    expect(JSON.stringify(first.body)).not.toContain("secret-path");
    expect(logged.map((l) => l.msg)).toContain("unhandled error");
    const again = await cosigner.deliver(body);
    expect(again.verdict).toBe("signed");
    expect(again.body).toMatchObject({ signTransaction: true, replayOf: expect.any(String) });
  });
});
