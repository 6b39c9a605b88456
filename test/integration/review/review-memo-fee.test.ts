/**
 * A reviewer sees the memo and the network fee of what they release. An exchange credits a deposit to the account its memo names, and a fee leaves the
 * wallet as a transfer does; both are facts the policy reads (tx.memo, tx.fee) but the review's
 * explanation, page, CLI and notification showed neither. Two approvers read "90,000 XLM → the
 * exchange" and released a deposit credited to the initiator's own account at the exchange; or
 * "120.5 USDC → 0x5290…" with 2 ETH of fee beside it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { example } from "../../../src/core/transaction/test-bodies.js";
import { HOT_WALLET, transactionName, USDC } from "../../support/bodies.js";
import { runCli } from "../../support/cli.js";
import { writeBundle } from "../../support/service.js";
import { ALICE, api, reviewPath, startReviewWorld, type ReviewWorld } from "../../support/review.js";

const EXCHANGE = "GAYOLLLUIZE4DZMBB2ZBKGBUBZLIOYU6XFLW37GBP2VZD3ABNXCW4BVA";
const XLM = "assets/native.stellar-mainnet";

const POLICY = `
version: "review-memo-fee.1"
default: deny
reviewers:
  treasury-approvers:
    - {identity: ${ALICE}, user: users/a11ce}
rules:
  - id: large-review
    decision: defer
    reason: Large transfers wait for a treasury approver
    review: {group: treasury-approvers, quorum: 1, expiresAfter: 24h}
    when: {">": [{"var": "transfer.amount"}, "100"]}
  - id: transfers
    decision: allow
    when: {"in": [{"var": "transfer.asset"}, ["${XLM}", "${USDC}"]]}
`;

const deposit = () => ({
  name: transactionName("memo"),
  state: "AWAITING_SIGNATURE",
  note: "Exchange deposit",
  details: {
    assetTransfer: { asset: XLM, amount: "90000", source: HOT_WALLET, destination: EXCHANGE, stellarOptions: { memo: { type: "ID", data: "666" } } },
  },
});

const withFee = () => ({
  ...(example("api-shape-token-transfer-evm") as { evmTransaction: object }),
  name: transactionName("fee"),
});

describe("a review of a transfer with a memo or a network fee", () => {
  let w: ReviewWorld;
  let hook: Server;
  const notices: string[] = [];

  beforeAll(async () => {
    hook = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        notices.push((JSON.parse(body) as { text: string }).text);
        res.end("ok");
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
    w = await startReviewWorld(
      { COUNTERSIGN_ASSET_DECIMALS: JSON.stringify({ [USDC]: 6 }), COUNTERSIGN_REVIEW_WEBHOOK_URL: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook` },
      { policiesDir: writeBundle(POLICY) },
    );
  });
  afterAll(async () => {
    await w?.stop();
    await new Promise((resolve) => hook?.close(resolve));
  });

  const page = async (name: string) => {
    const answer = await fetch(`${w.service.url}/review/${name}`, { headers: { cookie: `countersign_review=${encodeURIComponent(w.reviewers.tokens[ALICE]!)}` } });
    expect(answer.status).toBe(200);
    return answer.text();
  };
  const show = async (name: string) => {
    const shown = await runCli(["review", "show", name], { env: { COUNTERSIGN_URL: w.service.url, COUNTERSIGN_REVIEWER_TOKEN: w.reviewers.tokens[ALICE]! } });
    expect(shown.code, shown.stderr).toBe(0);
    return shown.stdout;
  };
  const noticeOf = async (name: string) => {
    await expect.poll(() => notices.find((n) => n.includes(name))).toBeDefined();
    return notices.find((n) => n.includes(name))!;
  };

  it("shows the memo an exchange credits the deposit to", async () => {
    const body = deposit();
    expect((await w.cosigner.deliver(body)).verdict).toBe("pending");
    const view = await api(w.service, "GET", reviewPath(body.name), w.reviewers.tokens[ALICE]);
    expect(view.body.explanation).toMatchObject({ memo: { type: "ID", data: "666" }, fee: null });
    expect(await page(body.name)).toMatch(/<dt>Memo<\/dt><dd data-testid="memo"><code>ID 666<\/code>/);
    expect(await show(body.name)).toContain("  memo ID 666");
    expect(await noticeOf(body.name)).toContain("Memo: ID 666");
  });

  it("shows the network fee the transaction states", async () => {
    const body = { ...withFee(), evmTransaction: { ...withFee().evmTransaction, fee: { gasLimit: "1000000", maxFeePerGas: "0x1d1a94a2000" } } };
    expect((await w.cosigner.deliver(body)).verdict).toBe("pending");
    const view = await api(w.service, "GET", reviewPath(body.name), w.reviewers.tokens[ALICE]);
    expect(view.body.explanation).toMatchObject({ memo: null, fee: { asset: "assets/native.ethereum-mainnet", amount: "2" } });
    expect(await page(body.name)).toMatch(/<dt>Network fee<\/dt><dd data-testid="fee">2 <code>assets\/native.ethereum-mainnet<\/code>/);
    expect(await show(body.name)).toContain("  network fee 2 assets/native.ethereum-mainnet");
    expect(await noticeOf(body.name)).toContain("Network fee: 2 assets/native.ethereum-mainnet");
  });

  // Slack reads <…> in a message's text as a link or a mention: a memo and a body's own key (a
  // payload is named by its path) put '<!channel>' and a link titled as the security team's in the
  // reviewers' channel.
  it("puts no markup of the body's in the notification", async () => {
    const body = {
      ...deposit(),
      details: {
        assetTransfer: { ...deposit().details.assetTransfer, stellarOptions: { memo: { type: "TEXT", data: "<!channel> <https://evil.example/a|approved by security>" } } },
      },
      "<https://evil.example/b|checked> & \u202e": 1,
    };
    expect((await w.cosigner.deliver(body)).verdict).toBe("pending");
    const notice = await noticeOf(body.name);
    expect(notice).not.toMatch(/[<>\u202e]/);
    expect(notice).toContain("Memo: TEXT &lt;!channel&gt; &lt;https://evil.example/a|approved by security&gt;");
    expect(notice).toContain('["&lt;https://evil.example/b|checked&gt; &amp; \\u202e"]');
  });
});
