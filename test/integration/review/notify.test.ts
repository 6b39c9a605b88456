/** The review notification: Slack-compatible JSON, retried with back-off, never holding up a decision. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/log.js";
import { message, ReviewNotifier } from "../../../src/review/notify.js";
import type { StoredReview } from "../../../src/review/store.js";
import { assetTransfer, ETH } from "../../support/bodies.js";
import { startReviewWorld } from "../../support/review.js";

interface Receiver {
  url: string;
  bodies: unknown[];
  server: Server;
}

async function receiver(answer: (n: number, req: IncomingMessage, res: ServerResponse) => void): Promise<Receiver> {
  const bodies: unknown[] = [];
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (c: Buffer) => (text += c.toString()));
    req.on("end", () => {
      bodies.push(JSON.parse(text));
      answer(bodies.length, req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies, server };
}

const review: StoredReview = {
  id: "r1",
  transactionName: "vaults/v1/transactions/t1",
  vault: "vaults/v1",
  contentDigest: "d",
  openedAt: new Date("2026-11-22T09:00:00Z"),
  expiresAt: new Date("2026-11-23T09:00:00Z"),
  openedBy: "00000000-0000-0000-0000-000000000000",
  initiator: null,
  requirements: [{ rule: "eth-review-threshold", group: "treasury-approvers", quorum: 2, expiresAfter: "24h" }],
  explanation: {
    transfers: [{ amount: "10", asset: ETH, destination: "0xabc", destinationName: "Exchange" }],
    deferredBy: [{ rule: "eth-review-threshold", reason: "ETH above 5 waits" }],
  },
};

/** The example policy's group: alice and carol without a declared user, bob users/2d2e40r3. */
const bundle = {
  reviewers: {
    "treasury-approvers": [
      { identity: "alice@treasury.example", user: null },
      { identity: "bob@treasury.example", user: "users/2d2e40r3" },
      { identity: "carol@treasury.example", user: null },
    ],
  },
};

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

describe("review notification", () => {
  it("retries 5xx with back-off until delivered, with a Slack-compatible text", async () => {
    const r = await receiver((n, _req, res) => res.writeHead(n < 3 ? 503 : 200).end("ok"));
    servers.push(r.server);
    const notifier = new ReviewNotifier({ url: r.url, logger: silentLogger, baseDelayMs: 5 });
    notifier.opened(review, bundle);
    await expect.poll(() => r.bodies.length, { timeout: 5_000 }).toBe(3);
    expect(r.bodies[2]).toEqual({
      text: [
        "Review needed: vaults/v1/transactions/t1",
        `Transfers (1): 10 ${ETH} to Exchange`,
        "Why: ETH above 5 waits",
        // The body names no initiator: one approval more than the rule's quorum, as the review page says.
        "Needs: 3 of treasury-approvers (the body names no initiator: one approval more than the rule's quorum); expires 2026-11-23T09:00:00.000Z",
      ].join("\n"),
    });
    await notifier.stop();
  });

  it("asks for the rule's quorum when the body names an initiator a member is recognised as", () => {
    expect(message({ ...review, initiator: "users/2d2e40r3" }, bundle).text).toContain("Needs: 2 of treasury-approvers;");
  });

  it("says why one more, and when fewer will do, when the body names an initiator no member is recognised as", () => {
    // Only bob's user is declared: two approvers who all have one cannot be found.
    expect(message({ ...review, initiator: "users/9f3k2" }, bundle).text).toContain(
      "Needs: 3 of treasury-approvers (the initiator users/9f3k2 is no member's user: any approver without a user could be them);",
    );
    const one = { ...review, initiator: "users/9f3k2", requirements: [{ ...review.requirements[0]!, quorum: 1 }] };
    expect(message(one, bundle).text).toContain("Needs: 2 of treasury-approvers, or 1 if every approver has a user (the initiator users/9f3k2");
  });

  // Slack truncates a message's text past 40,000 characters. A batch of 1,000 transfers (or a long
  // payload name, made of a body key) pushed what the transaction carries beside its transfers, and
  // why and by whom it waits, out of the message.
  it("keeps what the transaction carries, why and what it needs within what Slack shows", () => {
    const transfers = Array.from({ length: 1000 }, (_, i) => ({ amount: "10", asset: ETH, destination: `0x${i.toString(16).padStart(40, "0")}`, destinationName: null }));
    const padded = { ...review, explanation: { ...(review.explanation as object), transfers, payloads: [`["${"x".repeat(50_000)}"]`, "tokenAllowances"] } };
    const text = message(padded, bundle).text;
    expect(text.length).toBeLessThan(40_000);
    expect(text).toMatch(/^Review needed: vaults\/v1\/transactions\/t1\nAlso carries \(not shown as transfers\): \["x+…; tokenAllowances\n/);
    expect(text).toContain(`Transfers (1000): 10 ${ETH} to 0x${"0".repeat(40)};`);
    expect(text).toContain("… and 990 more (see the review page)");
    expect(text).toContain("Why: ETH above 5 waits");
    expect(text).toContain("Needs: 3 of treasury-approvers");
  });

  it("gives up after its attempts, and does not retry a refusal", async () => {
    const failing = await receiver((_n, _req, res) => res.writeHead(500).end());
    const refusing = await receiver((_n, _req, res) => res.writeHead(404).end());
    servers.push(failing.server, refusing.server);
    const a = new ReviewNotifier({ url: failing.url, logger: silentLogger, baseDelayMs: 1, attempts: 3 });
    const b = new ReviewNotifier({ url: refusing.url, logger: silentLogger, baseDelayMs: 1, attempts: 3 });
    a.opened(review, bundle);
    b.opened(review, bundle);
    await expect.poll(() => failing.bodies.length, { timeout: 5_000 }).toBe(3);
    await a.stop();
    await b.stop();
    expect(failing.bodies).toHaveLength(3);
    expect(refusing.bodies).toHaveLength(1);
  });

  it("never holds up a decision: the deferral is answered while the webhook has not answered", async () => {
    const held: ServerResponse[] = [];
    const r = await receiver((_n, _req, res) => held.push(res));
    servers.push(r.server);
    const w = await startReviewWorld({ COUNTERSIGN_REVIEW_WEBHOOK_URL: r.url });
    try {
      const body = assetTransfer({ amount: "10", asset: ETH });
      const answer = await w.cosigner.deliver(body);
      expect(answer.status).toBe(503);
      await expect.poll(() => r.bodies.length, { timeout: 5_000 }).toBe(1);
      expect(held).toHaveLength(1); // still unanswered
      expect((r.bodies[0] as { text: string }).text).toContain(`Review needed: ${body.name}`);
      expect((await w.cosigner.deliver(body)).status).toBe(503);
      expect(r.bodies).toHaveLength(1); // once per review, not per delivery
      for (const res of held) res.writeHead(200).end();
    } finally {
      await w.stop();
    }
  });
});
