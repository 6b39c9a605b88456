/**
 * Human review end to end over HTTP: the co-signer simulator
 * delivers a large transfer, reviewers act through the review API with reviewer tokens and OIDC
 * ID tokens, and the next delivery is signed or canceled; the rows record every step.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealPending } from "../../../src/audit/sealer.js";
import { verifyChain } from "../../../src/audit/verify.js";
import { assetTransfer, COLD_WALLET, ETH, HOT_WALLET } from "../../support/bodies.js";
import {
  ADMIN_TOKEN,
  ALICE,
  AUDIENCE,
  api,
  approve,
  BOB,
  CAROL,
  INITIATED_BY_BOB,
  MALLORY,
  reject,
  reviewPath,
  startReviewWorld,
  WEBHOOK_TOKEN,
  type ReviewWorld,
} from "../../support/review.js";

/**
 * 10 ETH between two wallets of the vault: the example policy's eth-review-threshold defers it.
 * Initiated by bob, whose user the example policy declares; a body naming no initiator needs one more
 * approval (and one naming an initiator no member is: review-unrecognised-initiator.test.ts).
 */
const largeTransfer = (extra: Record<string, unknown> = {}) => ({ ...assetTransfer({ amount: "10", asset: ETH }), ...INITIATED_BY_BOB, ...extra });

describe("human review of a deferred transfer, over HTTP", () => {
  let w: ReviewWorld;
  let alice: string;
  let bob: string;
  let mallory: string;
  let carol: string; // an OIDC ID token

  beforeAll(async () => {
    w = await startReviewWorld();
    const token = (identity: string) => w.reviewers.tokens[identity]!;
    [alice, bob, mallory] = [token(ALICE), token(BOB), token(MALLORY)];
    carol = await w.issuer.idToken({ sub: "carol-1", email: "Carol@Treasury.example", email_verified: true });
  });
  afterAll(async () => w?.stop());

  const decisions = (name: string) =>
    w.tdb.handle.db.selectFrom("decisions").select(["id", "decision", "sign_transaction", "reasons", "replayed"]).where("transaction_name", "=", name).orderBy("seq").execute();
  const actions = (name: string) =>
    w.tdb.handle.db.selectFrom("review_actions").select(["action", "identity", "group", "comment", "content_digest"]).where("transaction_name", "=", name).orderBy("seq").execute();

  async function deferred(body: { name: string }) {
    const first = await w.cosigner.deliver(body);
    expect(first.verdict).toBe("pending");
    expect(first.status).toBe(503);
    expect((first.body as { error: { reasons: string[] } }).error.reasons).toEqual(["ETH transfers above 5 wait for review by two treasury approvers"]);
    return first;
  }

  it("two approvals by distinct members: the next delivery is signed, and the rows record both and the decision", async () => {
    const body = largeTransfer();
    const first = await deferred(body);
    const opened = await api(w.service, "GET", reviewPath(body.name), alice);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({
      transactionName: body.name,
      vault: "vaults/5c3f1a2b9d7e",
      state: "open",
      openedAt: "2026-11-22T09:00:00.000Z",
      expiresAt: "2026-11-23T09:00:00.000Z",
      requirements: [{ rule: "eth-review-threshold", group: "treasury-approvers", quorum: 2, approvals: [] }],
      rejection: null,
      openedBy: (first.body as { error: { decisionId: string } }).error.decisionId,
    });
    expect(opened.body.explanation).toMatchObject({
      kind: "assetTransfer",
      transfers: [
        {
          index: 0,
          asset: ETH,
          amount: "10",
          destination: "vaults/5c3f1a2b9d7e/wallets/cold0001",
          destinationInternal: true,
          velocity: { daily_out: { amount: "0", amountAfter: "10" } },
        },
      ],
      deferredBy: [
        {
          rule: "eth-review-threshold",
          reason: "ETH transfers above 5 wait for review by two treasury approvers",
          review: { group: "treasury-approvers", quorum: 2, expiresAfter: "24h" },
        },
      ],
    });

    const one = await approve(w, body.name, alice, "expected payout");
    expect(one.status).toBe(200);
    expect(one.body.state).toBe("open");
    expect((await w.cosigner.deliver(body)).verdict).toBe("pending"); // one of two is not a quorum

    const two = await approve(w, body.name, carol);
    expect(two.status).toBe(200);
    expect(two.body.state).toBe("approved");
    expect((two.body.requirements as { approvals: { identity: string }[] }[])[0]!.approvals.map((a) => a.identity)).toEqual([ALICE, CAROL]);

    const signed = await w.cosigner.deliver(body);
    expect(signed.verdict).toBe("signed");
    expect((await w.cosigner.deliver(body)).verdict).toBe("signed"); // final, repeated

    const rows = await decisions(body.name);
    expect(rows.map((r) => [r.decision, r.replayed])).toEqual([
      ["defer", false],
      ["defer", false],
      ["allow", false],
      ["allow", true],
    ]);
    expect((await actions(body.name)).map((a) => [a.action, a.identity, a.group, a.comment])).toEqual([
      ["opened", null, "treasury-approvers", "eth-review-threshold: 2 of treasury-approvers"],
      ["approved", ALICE, "treasury-approvers", "expected payout"],
      ["approved", CAROL, "treasury-approvers", null],
    ]);
    const facts = await w.tdb.handle.db
      .selectFrom("decisions")
      .select("facts")
      .where("id", "=", (signed.body as { decisionId: string }).decisionId)
      .executeTakeFirstOrThrow();
    expect((facts.facts as { review: unknown }[])[0]!.review).toEqual({ state: "approved", approvals: 2, approvers: [ALICE, CAROL] });
    // Windows are charged when it is signed, by the signing decision: one charge per window group.
    const charges = await w.tdb.handle.db.selectFrom("velocity_charges").select(["amount", "decision_id"]).where("transaction_name", "=", body.name).execute();
    expect(charges).toHaveLength(2);
    for (const c of charges) expect(c).toEqual({ amount: "10", decision_id: (signed.body as { decisionId: string }).decisionId });

    // The review rows are links of the audit chain and steps of the transaction's timeline.
    await sealPending(w.tdb.handle.db);
    const chained = await sql<{ source: string; n: number }>`
      select source, count(*)::int as n from audit_chain c join review_actions a on c.source = 'review_actions' and c.row_key = a.id::text
      where a.transaction_name = ${body.name} group by source`.execute(w.tdb.handle.db);
    expect(chained.rows).toEqual([{ source: "review_actions", n: 3 }]);
    expect((await verifyChain(w.tdb.handle.db)).ok).toBe(true);
    const timeline = await sql<{ kind: string; outcome: string; detail: string | null }>`
      select kind, outcome, detail from transaction_timeline where transaction_name = ${body.name} order by at, seq`.execute(w.tdb.handle.db);
    expect(timeline.rows.filter((r) => r.kind === "review")).toEqual([
      { kind: "review", outcome: "opened", detail: "eth-review-threshold: 2 of treasury-approvers" },
      { kind: "review", outcome: "approved", detail: `${ALICE}: expected payout` },
      { kind: "review", outcome: "approved", detail: CAROL },
    ]);
  });

  it("a single rejection cancels: the next delivery is denied for good with who rejected and why", async () => {
    const body = largeTransfer();
    await deferred(body);
    await approve(w, body.name, alice);
    const refused = await reject(w, body.name, bob, "not on the payout calendar");
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ state: "rejected", rejection: { identity: BOB, comment: "not on the payout calendar" } });
    const denied = await w.cosigner.deliver(body);
    expect(denied.verdict).toBe("canceled");
    expect(denied.body).toMatchObject({ signTransaction: false, reasons: [`rejected in review by ${BOB}: not on the payout calendar`] });
    expect((await approve(w, body.name, carol)).body).toMatchObject({ error: { code: "REVIEW_CLOSED" } });
    expect((await w.cosigner.deliver(body)).verdict).toBe("canceled");
    expect((await decisions(body.name)).map((r) => [r.decision, r.sign_transaction, r.replayed])).toEqual([
      ["defer", null, false],
      ["deny", false, false],
      ["deny", false, true],
    ]);
  });

  it("a rejection needs a comment; a second approval by the same identity changes nothing", async () => {
    const body = largeTransfer();
    await deferred(body);
    const noComment = await reject(w, body.name, alice);
    expect(noComment.status).toBe(400);
    expect(noComment.body).toMatchObject({ error: { code: "INVALID_REQUEST" } });
    expect((await approve(w, body.name, alice, "first")).status).toBe(200);
    const again = await approve(w, body.name, alice, "second");
    expect(again.status).toBe(200);
    expect((again.body.requirements as { approvals: unknown[] }[])[0]!.approvals).toEqual([{ identity: ALICE, at: "2026-11-22T09:00:00.000Z", comment: "first" }]);
    expect((await actions(body.name)).filter((a) => a.action === "approved")).toHaveLength(1);
    expect((await w.cosigner.deliver(body)).verdict).toBe("pending");
  });

  it("the initiator's approval is refused, and counts for nothing", async () => {
    const body = largeTransfer({ request: { initiator: "users/2d2e40r3" } }); // bob's platform user
    await deferred(body);
    const own = await approve(w, body.name, bob);
    expect(own.status).toBe(403);
    expect(own.body).toMatchObject({ error: { code: "INITIATOR_CANNOT_APPROVE", requestId: expect.any(String) } });
    await approve(w, body.name, alice);
    expect((await w.cosigner.deliver(body)).verdict).toBe("pending");
    expect((await actions(body.name)).map((a) => a.identity)).toEqual([null, ALICE]);
  });

  it("a body naming no initiator needs one approval more than the quorum: the initiator could be any approver", async () => {
    // The reference shape has no request.initiator. Bob may have initiated this one himself; no
    // approval can be refused for it, so two approvals are not enough, whoever gave them.
    const body = largeTransfer({ request: undefined });
    await deferred(body);
    const opened = await api(w.service, "GET", reviewPath(body.name), alice);
    expect(opened.body).toMatchObject({ state: "open", requirements: [{ rule: "eth-review-threshold", group: "treasury-approvers", quorum: 3 }] });
    expect((await approve(w, body.name, bob)).body.state).toBe("open");
    expect((await approve(w, body.name, alice)).body.state).toBe("open");
    expect((await w.cosigner.deliver(body)).verdict).toBe("pending");
    const third = await approve(w, body.name, carol);
    expect(third.body.state).toBe("approved");
    expect((await w.cosigner.deliver(body)).verdict).toBe("signed");
    expect((await actions(body.name)).map((a) => [a.action, a.comment])).toEqual([
      ["opened", "eth-review-threshold: 3 of treasury-approvers (the body names no initiator: one approval more than the rule's quorum)"],
      ["approved", null],
      ["approved", null],
      ["approved", null],
    ]);
  });

  it("an initiator named users/<identity> cannot approve either", async () => {
    const body = largeTransfer({ request: { initiator: `users/${CAROL}` } });
    await deferred(body);
    expect((await approve(w, body.name, carol)).body).toMatchObject({ error: { code: "INITIATOR_CANNOT_APPROVE" } });
  });

  it("a third party's credentials are refused: outsiders, unknown tokens, the webhook and admin tokens, forged or misaddressed ID tokens", async () => {
    const body = largeTransfer();
    await deferred(body);
    const path = `${reviewPath(body.name)}:approve`;
    const outsider = await api(w.service, "POST", path, mallory, {});
    expect(outsider.status).toBe(403);
    expect(outsider.body).toMatchObject({ error: { code: "NOT_A_REVIEWER" } });
    const oidcOutsider = await api(w.service, "POST", path, await w.issuer.idToken({ email: "eve@elsewhere.example" }), {});
    expect(oidcOutsider.body).toMatchObject({ error: { code: "NOT_A_REVIEWER" } });
    const refusedTokens = [
      undefined,
      "not-a-reviewer-token",
      WEBHOOK_TOKEN,
      ADMIN_TOKEN,
      await w.issuer.idToken({ email: CAROL }, { foreignKey: true }),
      await w.issuer.idToken({ email: CAROL }, { audience: "someone-else" }),
      await w.issuer.idToken({ email: CAROL }, { issuer: "https://issuer.invalid" }),
      await w.issuer.idToken({ email: CAROL }, { expiresIn: "-1m" }),
      await w.issuer.idToken({ email: CAROL, email_verified: false }),
      await w.issuer.idToken({ sub: "no-email" }),
      // Not this client's ID token, or not one that expires and was issued lately.
      await w.issuer.idToken({ email: CAROL, email_verified: "false" }),
      await w.issuer.idToken({ email: CAROL }, { expiresIn: null }),
      await w.issuer.idToken({ email: CAROL }, { issuedAt: nowSeconds() + 10 * 365 * 86_400, expiresIn: "20y" }),
      await w.issuer.idToken({ email: CAROL }, { issuedAt: nowSeconds() - 2 * 86_400, expiresIn: "20y" }),
      await w.issuer.idToken({ email: CAROL }, { typ: "at+jwt" }),
      await w.issuer.idToken({ email: CAROL, azp: "other-app" }, { audience: ["other-app", AUDIENCE] }),
      await w.issuer.idToken({ email: CAROL }, { audience: ["other-app", AUDIENCE] }),
    ];
    for (const token of refusedTokens) {
      const answer = await api(w.service, "POST", path, token, {});
      expect(answer.status, String(token)).toBe(401);
      expect(answer.body).toMatchObject({ error: { code: "UNAUTHORIZED" } });
    }
    expect((await api(w.service, "GET", "/v1/reviews", WEBHOOK_TOKEN)).status).toBe(401);
    expect((await actions(body.name)).map((a) => a.action)).toEqual(["opened"]);
    expect((await w.cosigner.deliver(body)).verdict).toBe("pending");
  });

  it("ID tokens shaped as providers may shape them are accepted: typ JWT, several audiences with this client as azp, no email_verified", async () => {
    const accepted = [
      await w.issuer.idToken({ email: CAROL }, { typ: "JWT" }),
      await w.issuer.idToken({ email: CAROL, azp: AUDIENCE }, { audience: ["other-app", AUDIENCE] }),
      await w.issuer.idToken({ email: CAROL, azp: AUDIENCE }),
      await w.issuer.idToken({ email: CAROL }, { issuedAt: nowSeconds() - 3600 }),
    ];
    for (const token of accepted) expect((await api(w.service, "GET", "/v1/reviews", token)).status).toBe(200);
  });

  it("approvals of one snapshot never count for a changed one: the changed delivery is a conflicting snapshot", async () => {
    const body = largeTransfer();
    await deferred(body);
    await approve(w, body.name, alice);
    await approve(w, body.name, carol);
    const changed = { ...body, details: { assetTransfer: { ...body.details.assetTransfer, amount: "11" } } };
    const answer = await w.cosigner.deliver(changed);
    expect(answer.verdict).toBe("canceled");
    expect(answer.body).toMatchObject({ reasons: ["conflicting snapshot"] });
    expect((await w.cosigner.deliver(body)).verdict).toBe("canceled"); // the name is decided for good
    expect(await w.tdb.handle.db.selectFrom("velocity_charges").select("amount").where("transaction_name", "=", body.name).execute()).toEqual([]);
  });

  it("an approval after the review expired does not count: refused, and the next delivery is denied `review expired`", async () => {
    const body = largeTransfer();
    await deferred(body);
    await approve(w, body.name, alice);
    w.clock.now += 24 * 3600_000; // exactly expiresAt
    try {
      const late = await approve(w, body.name, carol);
      expect(late.status).toBe(409);
      expect(late.body).toMatchObject({ error: { code: "REVIEW_CLOSED", message: "the review is expired" } });
      const denied = await w.cosigner.deliver(body);
      expect(denied.verdict).toBe("canceled");
      expect(denied.body).toMatchObject({ reasons: ["review expired"] });
      expect((await api(w.service, "GET", reviewPath(body.name), alice)).body.state).toBe("expired");
      expect((await actions(body.name)).map((a) => a.action)).toEqual(["opened", "approved", "expired"]);
    } finally {
      w.clock.now -= 24 * 3600_000;
    }
  });

  it("two reviewers approving concurrently are counted once each", async () => {
    const body = largeTransfer();
    await deferred(body);
    const answers = await Promise.all([alice, carol, alice, carol, alice, carol].map((t) => approve(w, body.name, t)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const approvals = (await actions(body.name))
      .filter((a) => a.action === "approved")
      .map((a) => a.identity)
      .sort();
    expect(approvals).toEqual([ALICE, CAROL]);
    expect((await api(w.service, "GET", reviewPath(body.name), alice)).body.state).toBe("approved");
    expect((await w.cosigner.deliver(body)).verdict).toBe("signed");
  });

  it("lists reviews newest first, filtered by state; a transaction without review is 404", async () => {
    const body = largeTransfer();
    await deferred(body);
    const open = await api(w.service, "GET", "/v1/reviews?state=open", carol);
    expect(open.status).toBe(200);
    const reviews = open.body.reviews as { transactionName: string; state: string }[];
    expect(reviews[0]!.transactionName).toBe(body.name);
    expect(reviews.every((r) => r.state === "open")).toBe(true);
    const all = (await api(w.service, "GET", "/v1/reviews", carol)).body.reviews as { state: string }[];
    expect(new Set(all.map((r) => r.state))).toEqual(new Set(["open", "approved", "rejected", "expired"]));
    expect((await api(w.service, "GET", "/v1/reviews?state=maybe", carol)).status).toBe(400);
    const missing = await api(w.service, "GET", reviewPath("vaults/5c3f1a2b9d7e/transactions/nothing"), carol);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: "NOT_FOUND" } });
    expect((await approve(w, "vaults/5c3f1a2b9d7e/transactions/nothing", alice)).status).toBe(404);
  });

  it("a review cookie or a path that is not valid percent-encoding is refused in the envelope, not a 500", async () => {
    const page = await fetch(`${w.service.url}/review`, { headers: { cookie: "countersign_review=%E0%A4%A" } });
    expect(page.status).toBe(401);
    const path = await fetch(`${w.service.url}/v1/vaults/%E0%A4/transactions/x/review`, { headers: { authorization: `Bearer ${alice}` } });
    expect(path.status).toBe(400);
    expect(await path.json()).toMatchObject({ error: { code: "INVALID_REQUEST", message: "request path has malformed percent-encoding" } });
  });

  it("a batch of small transfers that moves more than 5 ETH in all waits for review like one large transfer", async () => {
    // Ten 5 ETH legs: none above the threshold alone, so each leg alone would be signed at once.
    // From a wallet of its own, whose daily window the other cases here have not spent.
    const batch = {
      ...INITIATED_BY_BOB,
      name: largeTransfer().name,
      details: { assetBatchTransfer: { asset: ETH, source: `${HOT_WALLET}b`, destinations: Array.from({ length: 10 }, () => ({ destination: COLD_WALLET, amount: "5" })) } },
    };
    await deferred(batch);
    const opened = await api(w.service, "GET", reviewPath(batch.name), alice);
    expect(opened.body).toMatchObject({ state: "open", requirements: [{ rule: "eth-review-threshold", quorum: 2 }] });
  });

  it("a small transfer opens no review", async () => {
    const body = assetTransfer({ amount: "1" });
    expect((await w.cosigner.deliver(body)).verdict).toBe("signed");
    expect(await actions(body.name)).toEqual([]);
  });
});

describe("the review API in /openapi.json", () => {
  it("documents the endpoints of docs/interface.md section 9 and the Review object", async () => {
    const w = await startReviewWorld();
    try {
      const doc = (await (await fetch(`${w.service.url}/openapi.json`)).json()) as {
        paths: Record<string, unknown>;
        components: { schemas: Record<string, { properties?: object }> };
      };
      for (const path of [
        "/v1/reviews",
        "/v1/vaults/{vault}/transactions/{transaction}/review",
        "/v1/vaults/{vault}/transactions/{transaction}/review:approve",
        "/v1/vaults/{vault}/transactions/{transaction}/review:reject",
        "/review",
      ]) {
        expect(doc.paths, path).toHaveProperty([path]);
      }
      expect(Object.keys(doc.components.schemas.Review!.properties ?? {}).sort()).toEqual([
        "contentDigest",
        "expiresAt",
        "explanation",
        "openedAt",
        "openedBy",
        "rejection",
        "requirements",
        "state",
        "transactionName",
        "vault",
      ]);
    } finally {
      await w.stop();
    }
  });
});

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

describe("the review page behind a TLS-terminating proxy", () => {
  const login = (w: ReviewWorld, headers: Record<string, string>) =>
    fetch(`${w.service.url}/review/login`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-forwarded-proto": "https",
        "x-forwarded-host": "policy.internal",
        origin: "https://policy.internal",
        ...headers,
      },
      body: `token=${encodeURIComponent(w.reviewers.tokens[ALICE]!)}`,
    });

  it("believes X-Forwarded-Proto/-Host from the proxies COUNTERSIGN_TRUST_PROXY names: the form is same-origin, the cookie Secure", async () => {
    const w = await startReviewWorld({ COUNTERSIGN_TRUST_PROXY: "loopback" });
    try {
      const answer = await login(w, {});
      expect(answer.status).toBe(303);
      expect(answer.headers.get("set-cookie")).toMatch(/; Secure$/);
    } finally {
      await w.stop();
    }
  });

  it("believes no forwarded header by default: an https Origin is another site, and a client cannot claim https", async () => {
    const w = await startReviewWorld();
    try {
      expect((await login(w, {})).status).toBe(403);
      const direct = await login(w, { origin: w.service.url });
      expect(direct.status).toBe(303);
      expect(direct.headers.get("set-cookie")).not.toMatch(/Secure/);
    } finally {
      await w.stop();
    }
  });

  // Sign-out took a form from any site, and its answer cleared the cookie.
  it("signs out only on a form from its own origin", async () => {
    const w = await startReviewWorld();
    try {
      const logout = (origin: string) =>
        fetch(`${w.service.url}/review/logout`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", origin }, body: "csrf=x" });
      const foreign = await logout("https://attacker.example");
      expect(foreign.status).toBe(403);
      expect(foreign.headers.get("set-cookie")).toBeNull();
      const own = await logout(w.service.url);
      expect(own.status).toBe(303);
      expect(own.headers.get("set-cookie")).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
    } finally {
      await w.stop();
    }
  });
});
