/**
 * A decision costs two database round trips of two statements each — `begin` and the
 * read (which sets the timeouts) pipelined; then the write (which ends with the server's deadline
 * check) and `commit` pipelined (src/decision/session.ts) — whichever way it goes. Counted on the
 * real pg client of the running service by the bench's statement recorder (bench/capture.ts): a
 * query joins the round trip in progress only when the client is in pipeline mode and an earlier
 * query of that client is still unanswered; any other query starts a round trip. (The audit sealer
 * is off so that no background query lands in the count.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installStatementRecorder, type StatementRecorder } from "../../../bench/capture.js";
import { assetTransfer } from "../../support/bodies.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService } from "../../support/service.js";

describe("round trips per decision", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;
  let recorder: StatementRecorder;

  beforeAll(async () => {
    recorder = installStatementRecorder();
    tdb = await createTestDatabase();
    service = await startTestService({ database: tdb.handle, env: { COUNTERSIGN_AUDIT_SEAL: "false" } });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
  });
  afterAll(async () => {
    recorder?.uninstall();
    await service?.stop();
    await tdb?.drop();
  });

  /** One delivery of `body`: its verdict, and the statements it sent grouped by round trip. */
  async function deliver(body: unknown) {
    let verdict = "";
    const statements = await recorder.capture(async () => {
      verdict = (await cosigner.deliver(body)).verdict;
    });
    const queries: string[][] = [];
    for (const s of statements) (queries[s.roundTrip] ??= []).push(s.text.trim().slice(0, 80));
    return { verdict, queries };
  }

  it("signs a fresh transfer with charges in two: begin and read; write and commit", async () => {
    const { verdict, queries } = await deliver(assetTransfer());
    expect(verdict).toBe("signed");
    expect(queries).toEqual([
      ["begin", expect.stringMatching(/countersign_decision_read\(\$1::jsonb, \$2::float8\)/)],
      [expect.stringMatching(/countersign_decision_write\(\$1::jsonb, \$2::float8\)/), "commit"],
    ]);
  });

  it("repeats a decided transaction in two", async () => {
    const body = assetTransfer();
    expect((await deliver(body)).verdict).toBe("signed");
    const again = await deliver(body);
    expect(again.verdict).toBe("signed");
    expect(again.queries).toHaveLength(2);
  });

  it("denies in two, and defers opening a review in two", async () => {
    const denied = await deliver(assetTransfer({ amount: "25" }));
    expect(denied.verdict).toBe("canceled");
    expect(denied.queries).toHaveLength(2);
    const deferred = await deliver(assetTransfer({ amount: "6" }));
    expect(deferred.verdict).toBe("pending");
    expect(deferred.queries).toHaveLength(2);
    const reviews = await tdb.handle.db.selectFrom("reviews").select("transaction_name").execute();
    expect(reviews.length).toBe(1);
  });
});
