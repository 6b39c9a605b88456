/**
 * A review's expiry under a bundle that shortens `expiresAfter`, with two replicas on one database
 *. A pull request cuts the time approvers have from 24 h to 1 h;
 * while it reaches the pods one by one, a pod still on the old bundle opens the review with 24 h.
 * The pods on the new bundle then accepted approvals two hours later and signed the transfer,
 * which a replica alone with the new bundle would have opened with 1 h, found expired, and denied.
 * A bundle can shorten an open review's expiry (from its opening), never lengthen it.
 * Real services, real Postgres.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assetTransfer, ETH } from "../../support/bodies.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { writeReviewerTokens } from "../../support/reviewers.js";
import { EXAMPLE_POLICIES, startTestService, writeBundle } from "../../support/service.js";

const ALICE = "alice@treasury.example";
const BOB = "bob@treasury.example";
const CAROL = "carol@treasury.example";

const example = readFileSync(path.join(EXAMPLE_POLICIES, "policy.yaml"), "utf8");
const OLD = example.replace(/^version: .*$/m, 'version: "expiry-24h"');
const NEW = OLD.replace(/^version: .*$/m, 'version: "expiry-1h"').replaceAll("expiresAfter: 24h}", "expiresAfter: 1h}");

describe("a review opened by a pod on a bundle with a longer expiry than the one in force elsewhere", () => {
  let tdb: TestDatabase;
  let oldPod: Awaited<ReturnType<typeof startTestService>>;
  let newPod: Awaited<ReturnType<typeof startTestService>>;
  const clock = { now: Date.parse("2026-11-22T09:00:00Z") };
  const tokens = writeReviewerTokens([ALICE, BOB, CAROL]);
  const act = async (url: string, name: string, who: string) => {
    const r = await fetch(`${url}/v1/${name}/review:approve`, {
      method: "POST",
      headers: { authorization: `Bearer ${tokens.tokens[who]}`, "content-type": "application/json" },
      body: "{}",
    });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  const cosigner = (url: string) => new CosignerSimulator({ webhookUrl: `${url}/v1/cosigner/webhook` });

  beforeAll(async () => {
    expect(NEW.match(/expiresAfter: 1h}/g)?.length).toBe(2);
    tdb = await createTestDatabase();
    const env = { COUNTERSIGN_REVIEWER_TOKENS_FILE: tokens.file };
    const now = () => new Date(clock.now);
    oldPod = await startTestService({ database: tdb.handle, policiesDir: writeBundle(OLD), clock: now, env });
    newPod = await startTestService({ database: tdb.handle, policiesDir: writeBundle(NEW), clock: now, env });
  });
  afterAll(async () => {
    await oldPod?.stop();
    await newPod?.stop();
    await tdb?.drop();
  });

  it("is expired on the pod whose bundle says 1 h: a late approval is refused and the next delivery denied", async () => {
    // 10 ETH, no initiator named: the quorum of 2 takes three approvals.
    const body = assetTransfer({ amount: "10", asset: ETH });
    expect((await cosigner(oldPod.url).deliver(body)).status).toBe(503);
    clock.now += 2 * 3600_000; // past 1 h, well within 24 h

    const late = await act(newPod.url, body.name, ALICE);
    expect(late).toMatchObject({ status: 409, body: { error: { code: "REVIEW_CLOSED" } } });
    for (const who of [BOB, CAROL]) await act(newPod.url, body.name, who);
    const next = await cosigner(newPod.url).deliver(body);
    expect(next.verdict, JSON.stringify(next.body)).toBe("canceled");
    expect(next.body).toMatchObject({ reasons: ["review expired"] });
  });

  it("does not count approvals given on a pod of the longer bundle after the shorter expiry", async () => {
    const body = assetTransfer({ amount: "10", asset: ETH });
    expect((await cosigner(oldPod.url).deliver(body)).status).toBe(503);
    clock.now += 2 * 3600_000;
    // The old pod still takes them: under its bundle the review is open for 22 more hours.
    for (const who of [ALICE, BOB, CAROL]) expect((await act(oldPod.url, body.name, who)).status).toBe(200);
    const review = await fetch(`${newPod.url}/v1/${body.name}/review`, { headers: { authorization: `Bearer ${tokens.tokens[ALICE]}` } });
    expect(await review.json()).toMatchObject({ state: "expired", expiresAt: new Date(clock.now - 3600_000).toISOString() });
    const next = await cosigner(newPod.url).deliver(body);
    expect(next.verdict, JSON.stringify(next.body)).toBe("canceled");
    expect(next.body).toMatchObject({ reasons: ["review expired"] });
  });

  it("keeps the opening's expiry when the bundle in force gives a longer one", async () => {
    const body = assetTransfer({ amount: "10", asset: ETH });
    expect((await cosigner(newPod.url).deliver(body)).status).toBe(503);
    clock.now += 2 * 3600_000;
    expect(await act(oldPod.url, body.name, ALICE)).toMatchObject({ status: 409, body: { error: { code: "REVIEW_CLOSED" } } });
    expect((await cosigner(oldPod.url).deliver(body)).body).toMatchObject({ reasons: ["review expired"] });
  });
});
