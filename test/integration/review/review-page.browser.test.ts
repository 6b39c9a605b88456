/**
 * Must-show 3: the review page in a real headless browser (Debian's chromium driven by
 * playwright-core): sign in with a reviewer token, approve a deferred transfer, and the co-signer's
 * next poll signs it. A screenshot is kept in test-artifacts/review-page.png.
 */
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assetTransfer, ETH } from "../../support/bodies.js";
import { ALICE, approve, CAROL, INITIATED_BY_BOB, startReviewWorld, type ReviewWorld } from "../../support/review.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARTIFACTS = path.resolve(import.meta.dirname, "../../../test-artifacts");

describe("the review page in a headless browser", () => {
  let w: ReviewWorld;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
    w = await startReviewWorld();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await w?.stop();
  });

  it("signs in with a token, approves, and the next poll signs the transfer", async () => {
    const body = { ...INITIATED_BY_BOB, ...assetTransfer({ amount: "12.5", asset: ETH }), note: "Quarterly rebalance" };
    expect((await w.cosigner.deliver(body)).verdict).toBe("pending");
    expect((await approve(w, body.name, await w.issuer.idToken({ email: CAROL }), "checked with desk")).status).toBe(200);

    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.setDefaultTimeout(15_000);
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    const first = await page.goto(`${w.service.url}/review`);
    expect(first!.status()).toBe(401);
    expect(first!.headers()["content-security-policy"]).toContain("default-src 'none'");
    await page.fill("#token", w.reviewers.tokens[ALICE]!);
    await page.click("button[type=submit]");
    await page.waitForLoadState();
    if (!(await page.$("[data-testid=identity]"))) throw new Error(`not signed in: ${await page.textContent("body")}`);
    await expect.poll(() => page.textContent("[data-testid=identity]")).toBe(ALICE);

    await page.click(`a[href="/review/${body.name}"]`);
    expect(await page.textContent("h1")).toContain(body.name);
    expect(await page.textContent("main")).toContain("ETH transfers above 5 wait for review by two treasury approvers");
    expect(await page.textContent("main")).toContain("Quarterly rebalance");
    expect(await page.textContent("[data-testid=state]")).toBe("open");

    await page.fill("#approve-comment", "matches the rebalance plan");
    await page.click("button.approve");
    await expect.poll(() => page.textContent("[data-testid=notice]")).toBe("You approved this transaction.");
    expect(await page.textContent("[data-testid=state]")).toBe("approved");
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, "review-page.png"), fullPage: true });
    expect(scripts).toEqual([]);

    const poll = await w.cosigner.poll([body]);
    expect(poll.get(body.name)!.verdict).toBe("signed");
  });

  it("refuses an action without the form's CSRF token, and one posted from another origin", async () => {
    const body = { ...INITIATED_BY_BOB, ...assetTransfer({ amount: "10", asset: ETH }) };
    await w.cosigner.deliver(body);
    const cookie = `countersign_review=${encodeURIComponent(w.reviewers.tokens[ALICE]!)}`;
    const post = (headers: Record<string, string>, form: string) =>
      fetch(`${w.service.url}/review/${body.name}/approve`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded", ...headers },
        body: form,
      });
    expect((await post({}, "comment=x")).status).toBe(403);
    expect((await post({}, "csrf=0000&comment=x")).status).toBe(403);
    expect((await post({ origin: "https://evil.example" }, "comment=x")).status).toBe(403);
    const review = await fetch(`${w.service.url}/v1/${body.name}/review`, { headers: { authorization: `Bearer ${w.reviewers.tokens[ALICE]!}` } });
    expect(((await review.json()) as { requirements: { approvals: unknown[] }[] }).requirements[0]!.approvals).toEqual([]);
  });
});
