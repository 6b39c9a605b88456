/**
 * `GET /v1/decisions/{id}` and `GET /v1/decisions?transaction=`: a recorded decision read while
 * the service runs, with the admin token only (a row holds the transaction's snapshot).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assetTransfer, transactionName } from "../../support/bodies.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService } from "../../support/service.js";

const WEBHOOK_TOKEN = "webhook-token-decisions-read-0123";
const ADMIN_TOKEN = "admin-token-decisions-read-4567";

type View = { id: string; decision: string; replayed: boolean; replayOf: string | null; transactionName: string; transaction: unknown; facts: unknown[]; policyVersion: string };

describe("reading recorded decisions through the service", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  const body = assetTransfer({ name: transactionName("read") });
  let first: { decisionId: string };
  let repeat: { decisionId: string; replayOf: string };

  const get = (path: string, token: string | null = ADMIN_TOKEN) => fetch(`${service.url}${path}`, { headers: token === null ? {} : { authorization: `Bearer ${token}` } });
  const deliver = async () =>
    (
      await fetch(`${service.url}/v1/cosigner/webhook`, {
        method: "POST",
        body: JSON.stringify(body),
        headers: { authorization: `Bearer ${WEBHOOK_TOKEN}`, "content-type": "application/json" },
      })
    ).json();

  beforeAll(async () => {
    tdb = await createTestDatabase();
    service = await startTestService({ database: tdb.handle, env: { COUNTERSIGN_WEBHOOK_TOKEN: WEBHOOK_TOKEN, COUNTERSIGN_ADMIN_TOKEN: ADMIN_TOKEN } });
    first = (await deliver()) as typeof first;
    repeat = (await deliver()) as typeof repeat;
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  it("refuses without the admin token, and with the webhook token", async () => {
    for (const token of [null, WEBHOOK_TOKEN, "not-the-admin-token"]) {
      const byId = await get(`/v1/decisions/${first.decisionId}`, token);
      expect(byId.status).toBe(401);
      expect(((await byId.json()) as { error: { code: string } }).error.code).toBe("UNAUTHORIZED");
      expect((await get(`/v1/decisions?transaction=${body.name}`, token)).status).toBe(401);
    }
  });

  it("answers a decision's row: its outcome, policy, facts and snapshot", async () => {
    const answer = await get(`/v1/decisions/${first.decisionId}`);
    expect(answer.status).toBe(200);
    const view = (await answer.json()) as View;
    expect(view).toMatchObject({ id: first.decisionId, transactionName: body.name, decision: "allow", replayed: false, replayOf: null });
    expect(view.transaction).toEqual(body);
    expect(view.facts.length).toBeGreaterThan(0);
  });

  it("answers a repeat's own row, naming the final decision it repeats", async () => {
    expect(repeat.replayOf).toBe(first.decisionId);
    const view = (await (await get(`/v1/decisions/${repeat.decisionId}`)).json()) as View;
    expect(view).toMatchObject({ id: repeat.decisionId, decision: "allow", replayed: true, replayOf: first.decisionId });
  });

  it("lists a transaction's decisions oldest first, repeats included", async () => {
    const list = (await (await get(`/v1/decisions?transaction=${body.name}`)).json()) as { decisions: View[] };
    expect(list.decisions.map((d) => [d.id, d.replayed])).toEqual([
      [first.decisionId, false],
      [repeat.decisionId, true],
    ]);
    const none = (await (await get(`/v1/decisions?transaction=${transactionName("never")}`)).json()) as { decisions: View[] };
    expect(none.decisions).toEqual([]);
  });

  it("answers 404 for an unknown id or one that is no UUID, 400 without a transaction name", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const answer = await get(`/v1/decisions/${id}`);
      expect(answer.status).toBe(404);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
    }
    expect((await get("/v1/decisions")).status).toBe(400);
    expect((await get("/v1/decisions?transaction=vaults/x")).status).toBe(400);
  });
});
