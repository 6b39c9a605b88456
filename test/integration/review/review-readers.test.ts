/**
 * Who reads reviews (docs/interface.md section 9, NOT_A_REVIEWER): a valid reviewer credential only says
 * who someone is. Every user of the OIDC provider with an ID token for the
 * audience, and a token-file identity in no group, listed and read every review (amounts, assets,
 * source and destination, initiator, note, window use) through the API and the review page; only
 * approve and reject checked the groups. Now someone in no reviewer group of the bundle in force is
 * refused everything with 403 NOT_A_REVIEWER, and a member reads the reviews whose requirements
 * name a group of theirs. Two groups here: ETH reviews ask treasury-approvers, USDC ones ops-approvers.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reloadPolicies } from "../../../src/service.js";
import { assetTransfer, ETH, USDC } from "../../support/bodies.js";
import { EXAMPLE_POLICIES, writeBundle } from "../../support/service.js";
import { ADMIN_TOKEN, ALICE, api, approve, INITIATED_BY_BOB, MALLORY, reject, reviewPath, startReviewWorld, type ReviewWorld } from "../../support/review.js";

const DAVE = "dave@ops.example";
const ERIN = "erin@ops.example";
const EVE = "eve@elsewhere.example"; // a user of the identity provider, in no group

const example = readFileSync(path.join(EXAMPLE_POLICIES, "policy.yaml"), "utf8");
/** The example policy with a second group, ops-approvers, that the USDC review rule asks instead. */
const twoGroups = (version: string, ops: readonly string[]) => {
  const text = example
    .replace(/^version: .*$/m, `version: "${version}"`)
    .replace(/^reviewers:\n/m, `reviewers:\n  ops-approvers:\n${ops.map((m) => `    - ${m}\n`).join("")}`)
    .replace(/(- id: usdc-review-threshold\n(?:.*\n){2}\s*review: \{group: )treasury-approvers/, "$1ops-approvers");
  if (!text.includes("ops-approvers:\n") || !/review: \{group: ops-approvers/.test(text)) throw new Error("the example policy changed shape");
  return text;
};

const NOTE = "payroll batch 7 — confidential";
const ethReview = () => ({ ...assetTransfer({ amount: "10", asset: ETH }), ...INITIATED_BY_BOB, note: NOTE });
const usdcReview = () => ({ ...assetTransfer({ amount: "20000", asset: USDC }), ...INITIATED_BY_BOB, note: NOTE });

describe("reading reviews needs a reviewer group", () => {
  let w: ReviewWorld;
  let dir: string;
  let eth: ReturnType<typeof ethReview>;
  let usdc: ReturnType<typeof usdcReview>;
  let alice: string; // treasury-approvers, reviewer token
  let mallory: string; // reviewer token, in no group
  let dave: string; // ops-approvers, ID token
  let eve: string; // ID token, in no group

  beforeAll(async () => {
    dir = writeBundle(twoGroups("readers-1", [DAVE, ERIN]));
    w = await startReviewWorld({}, { policiesDir: dir });
    [alice, mallory] = [w.reviewers.tokens[ALICE]!, w.reviewers.tokens[MALLORY]!];
    [dave, eve] = [await w.issuer.idToken({ email: DAVE }), await w.issuer.idToken({ email: EVE })];
    eth = ethReview();
    usdc = usdcReview();
    for (const body of [eth, usdc]) expect((await w.cosigner.deliver(body)).status).toBe(503);
    const opened = async (name: string) => (await api(w.service, "GET", reviewPath(name), name === eth.name ? alice : dave)).body.requirements;
    expect(await opened(eth.name)).toMatchObject([{ group: "treasury-approvers" }]);
    expect(await opened(usdc.name)).toMatchObject([{ group: "ops-approvers" }]);
  });
  afterAll(async () => w?.stop());

  const refused = (answer: { status: number; body: Record<string, unknown> }, identity: string) => {
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({
      error: { code: "NOT_A_REVIEWER", message: expect.stringMatching(new RegExp(`^${identity} is in no reviewer group`)), requestId: expect.any(String) },
    });
    expect(JSON.stringify(answer.body)).not.toContain(NOTE);
  };

  it("someone in no group gets 403 NOT_A_REVIEWER from the list and every review, even one that does not exist", async () => {
    for (const [token, identity] of [
      [mallory, MALLORY],
      [eve, EVE],
    ] as const) {
      refused(await api(w.service, "GET", "/v1/reviews", token), identity);
      refused(await api(w.service, "GET", "/v1/reviews?state=open", token), identity);
      refused(await api(w.service, "GET", reviewPath(eth.name), token), identity);
      refused(await api(w.service, "GET", reviewPath(usdc.name), token), identity);
      // Not 404: an outsider does not learn which names have a review.
      refused(await api(w.service, "GET", reviewPath("vaults/5c3f1a2b9d7e/transactions/nothing"), token), identity);
    }
  });

  it("someone in no group gets 403 NOT_A_REVIEWER from approve and reject of a name with no review too, not 404", async () => {
    for (const [token, identity] of [
      [mallory, MALLORY],
      [eve, EVE],
    ] as const) {
      for (const name of [eth.name, "vaults/5c3f1a2b9d7e/transactions/nothing"]) {
        refused(await approve(w, name, token), identity);
        refused(await reject(w, name, token, "no"), identity);
      }
    }
  });

  it("the admin and webhook tokens still read nothing: they are no reviewer credentials", async () => {
    expect((await api(w.service, "GET", "/v1/reviews", ADMIN_TOKEN)).status).toBe(401);
    expect((await api(w.service, "GET", reviewPath(eth.name), ADMIN_TOKEN)).status).toBe(401);
  });

  it("a member lists only the reviews that ask a group of theirs, and reads those", async () => {
    const names = async (token: string, query = "") =>
      ((await api(w.service, "GET", `/v1/reviews${query}`, token)).body.reviews as { transactionName: string }[]).map((r) => r.transactionName);
    expect(await names(alice)).toContain(eth.name);
    expect(await names(alice)).not.toContain(usdc.name);
    expect(await names(dave)).toEqual([usdc.name]);
    expect(await names(dave, "?state=open")).toEqual([usdc.name]);

    const own = await api(w.service, "GET", reviewPath(eth.name), alice);
    expect(own.status).toBe(200);
    expect(JSON.stringify(own.body)).toContain(NOTE);
    expect((await api(w.service, "GET", reviewPath(usdc.name), dave)).status).toBe(200);
  });

  it("a member of another group gets 403 NOT_A_REVIEWER on a review that does not ask theirs, as approve and reject do", async () => {
    const other = await api(w.service, "GET", reviewPath(usdc.name), alice);
    refused(other, ALICE);
    expect(other.body).toMatchObject({ error: { message: `${ALICE} is in no reviewer group this review requires` } });
    refused(await api(w.service, "GET", reviewPath(eth.name), dave), DAVE);
    expect((await approve(w, usdc.name, alice)).body).toMatchObject({ error: { code: "NOT_A_REVIEWER" } });
    expect((await reject(w, eth.name, dave, "not mine")).body).toMatchObject({ error: { code: "NOT_A_REVIEWER" } });
    // A review that does not exist is still 404 for a member.
    expect((await api(w.service, "GET", reviewPath("vaults/5c3f1a2b9d7e/transactions/nothing"), alice)).status).toBe(404);
  });

  describe("the review page", () => {
    const login = (token: string) =>
      fetch(`${w.service.url}/review/login`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `token=${encodeURIComponent(token)}`,
      });
    const page = async (pagePath: string, token: string) => {
      const r = await fetch(`${w.service.url}${pagePath}`, { headers: { cookie: `countersign_review=${encodeURIComponent(token)}` } });
      return { status: r.status, text: await r.text() };
    };

    it("refuses to sign in someone in no group, and sets no cookie", async () => {
      for (const token of [mallory, eve]) {
        const answer = await login(token);
        expect(answer.status).toBe(403);
        expect(answer.headers.get("set-cookie")).toBeNull();
        expect(await answer.text()).toContain("is in no reviewer group");
      }
      const member = await login(alice);
      expect(member.status).toBe(303);
      expect(member.headers.get("set-cookie")).toMatch(/^countersign_review=/);
    });

    it("shows someone in no group neither the queue nor a review (a cookie set by hand, or from before a reload)", async () => {
      for (const token of [mallory, eve]) {
        for (const path of ["/review", `/review/${eth.name}`, `/review/${usdc.name}`, "/review/vaults/5c3f1a2b9d7e/transactions/nothing"]) {
          const answer = await page(path, token);
          expect(answer.status, path).toBe(403);
          expect(answer.text, path).toContain("is in no reviewer group");
          for (const secret of [NOTE, eth.name, usdc.name]) expect(answer.text, path).not.toContain(secret);
        }
      }
    });

    it("shows a member the queue and the reviews of their groups only", async () => {
      const queue = await page("/review", alice);
      expect(queue.status).toBe(200);
      expect(queue.text).toContain(eth.name);
      expect(queue.text).not.toContain(usdc.name);
      const own = await page(`/review/${eth.name}`, alice);
      expect(own.status).toBe(200);
      expect(own.text).toContain(NOTE);
      const other = await page(`/review/${usdc.name}`, alice);
      expect(other.status).toBe(403);
      expect(other.text).not.toContain(NOTE);
      expect((await page(`/review/${usdc.name}`, dave)).status).toBe(200);
    });
  });

  it("membership is the bundle in force's: a member taken out of every group by a reload reads nothing", async () => {
    writeFileSync(path.join(dir, "policy.yaml"), twoGroups("readers-2", [ERIN, "frank@ops.example"]));
    await reloadPolicies(w.service.policy, undefined);
    try {
      refused(await api(w.service, "GET", "/v1/reviews", dave), DAVE);
      refused(await api(w.service, "GET", reviewPath(usdc.name), dave), DAVE);
      const erin = await w.issuer.idToken({ email: ERIN });
      expect((await api(w.service, "GET", reviewPath(usdc.name), erin)).status).toBe(200);
    } finally {
      writeFileSync(path.join(dir, "policy.yaml"), twoGroups("readers-3", [DAVE, ERIN]));
      await reloadPolicies(w.service.policy, undefined);
    }
  });
});
