import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CosignerSimulator } from "../../support/cosigner.js";
import { assetTransfer } from "../../support/bodies.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService } from "../../support/service.js";

describe("co-signer webhook: idempotent by transaction name", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;

  beforeAll(async () => {
    tdb = await createTestDatabase({ maxConnections: 20 });
    service = await startTestService({ database: tdb.handle });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  const rowsFor = (name: string) => tdb.handle.db.selectFrom("decisions").selectAll().where("transaction_name", "=", name).orderBy("seq").execute();

  it.each([
    ["an allow", assetTransfer(), true],
    ["a deny", assetTransfer({ destination: "0x1111111111111111111111111111111111111111" }), false],
  ])("50 concurrent deliveries of %s make one final decision and 49 recorded repeats", async (_label, body, sign) => {
    const deliveries = await Promise.all(Array.from({ length: 50 }, () => cosigner.deliver(body)));
    expect(deliveries.every((d) => d.status === 200 && (d.body as { signTransaction: boolean }).signTransaction === sign)).toBe(true);
    const rows = await rowsFor(body.name);
    expect(rows).toHaveLength(50);
    const finals = rows.filter((r) => !r.replayed);
    expect(finals).toHaveLength(1);
    const final = finals[0]!;
    expect(rows[0]!.id).toBe(final.id); // the first committed row is the final one
    const repeats = rows.filter((r) => r.replayed);
    expect(repeats).toHaveLength(49);
    expect(repeats.every((r) => r.replay_of === final.id && r.decision === final.decision && r.sign_transaction === sign)).toBe(true);
    expect(new Set(deliveries.map((d) => (d.body as { decisionId: string }).decisionId))).toEqual(new Set(rows.map((r) => r.id)));
  });

  it("denies a later delivery whose transfers differ, as a conflicting snapshot, and keeps repeating the original", async () => {
    const original = assetTransfer({ amount: "1" });
    expect((await cosigner.deliver(original)).verdict).toBe("signed");
    const changed = assetTransfer({ name: original.name, amount: "2" });
    const conflict = await cosigner.deliver(changed);
    expect(conflict.verdict).toBe("canceled");
    expect(conflict.body).toMatchObject({ signTransaction: false, reasons: ["conflicting snapshot"] });
    expect((await cosigner.deliver(original)).verdict).toBe("signed");
    const rows = await rowsFor(original.name);
    expect(rows.map((r) => [r.decision, r.replayed, r.reasons])).toEqual([
      ["allow", false, ["Destination is an approved address-book entry or a wallet of this vault"]],
      ["deny", false, ["conflicting snapshot"]],
      ["allow", true, ["Destination is an approved address-book entry or a wallet of this vault"]],
    ]);
    expect(rows[1]!.transaction).toEqual(changed);
    expect(rows[1]!.replay_of).toBe(rows[0]!.id);
  });

  it("denies a changed delegation (no transfers) as conflicting, but repeats one whose keys are merely reordered", async () => {
    const name = `vaults/5c3f1a2b9d7e/transactions/deleg${Date.now()}`;
    const delegation = (contract: string) => ({
      name,
      subType: "EVM_ACCOUNT_DELEGATION",
      network: "networks/ethereum-mainnet",
      evmAccountDelegation: { contractAddress: { value: contract }, chainId: "1" },
      transfers: [],
    });
    const first = await cosigner.deliver(delegation("0x1111111111111111111111111111111111111111"));
    const denied = (first.body as { reasons: string[] }).reasons;
    expect(first.body).toMatchObject({ signTransaction: false });
    expect(denied).toContain("Only asset transfers and Stellar payments are signed automatically");
    const reordered = {
      ...delegation("0x1111111111111111111111111111111111111111"),
      evmAccountDelegation: { chainId: "1", contractAddress: { value: "0x1111111111111111111111111111111111111111" } },
    };
    expect((await cosigner.deliver(reordered)).body).toMatchObject({ signTransaction: false, replayOf: expect.any(String), reasons: denied });
    const changed = await cosigner.deliver(delegation("0x2222222222222222222222222222222222222222"));
    expect(changed.body).toMatchObject({ signTransaction: false, reasons: ["conflicting snapshot"] });
    const rows = await rowsFor(name);
    expect(rows.map((r) => [r.replayed, r.reasons])).toEqual([
      [false, denied],
      [true, denied],
      [false, ["conflicting snapshot"]],
    ]);
  });

  it("treats changed delivery metadata (state, timestamps, signer progress) as the same transaction", async () => {
    const original = assetTransfer();
    await cosigner.deliver(original);
    const later = { ...original, state: "AWAITING_SIGNATURE", createTime: "2026-11-21T10:00:00Z", signingSession: "vaults/v/signingSessions/s1" };
    const delivery = await cosigner.deliver(later);
    expect(delivery.verdict).toBe("signed");
    const rows = await rowsFor(original.name);
    expect(rows.map((r) => r.replayed)).toEqual([false, true]);
  });
});
