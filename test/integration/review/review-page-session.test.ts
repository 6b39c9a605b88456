/**
 * The review page's sign-in cookie holds the reviewer's credential, so it lives no longer than a
 * working day, and no longer than the ID token it holds: without Max-Age it was a session cookie,
 * which a browser restoring its session keeps for good (a reviewer token never expires by itself).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALICE, CAROL, startReviewWorld, type ReviewWorld } from "../../support/review.js";

const EIGHT_HOURS = 8 * 3600;

describe("the review page's sign-in cookie", () => {
  let w: ReviewWorld;
  beforeAll(async () => {
    w = await startReviewWorld();
  });
  afterAll(async () => {
    await w.stop();
  });

  const login = (token: string) =>
    fetch(`${w.service.url}/review/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: w.service.url },
      body: `token=${encodeURIComponent(token)}`,
    });
  const maxAge = (cookie: string | null) => Number(/; Max-Age=([0-9]+)/.exec(cookie ?? "")?.[1] ?? NaN);

  it("lasts at most eight hours for a reviewer token, and stays HttpOnly and SameSite=Strict", async () => {
    const answer = await login(w.reviewers.tokens[ALICE]!);
    expect(answer.status).toBe(303);
    const cookie = answer.headers.get("set-cookie");
    expect(cookie).toMatch(/^countersign_review=[^;]+; Path=\/review; HttpOnly; SameSite=Strict; Max-Age=[0-9]+$/);
    expect(maxAge(cookie)).toBe(EIGHT_HOURS);
  });

  it("ends when the ID token it holds expires", async () => {
    const idToken = await w.issuer.idToken({ sub: "carol-1", email: CAROL, email_verified: true }, { expiresIn: "10m" });
    const answer = await login(idToken);
    expect(answer.status).toBe(303);
    const seconds = maxAge(answer.headers.get("set-cookie"));
    expect(seconds).toBeGreaterThan(500);
    expect(seconds).toBeLessThanOrEqual(600);
  });
});
