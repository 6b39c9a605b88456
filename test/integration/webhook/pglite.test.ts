import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CosignerSimulator } from "../../support/cosigner.js";
import { assetTransfer } from "../../support/bodies.js";
import { startTestService } from "../../support/service.js";

describe("the embedded default: PGlite under COUNTERSIGN_DATA_DIR", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "countersign-data-"));
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;

  beforeAll(async () => {
    service = await startTestService({ env: { COUNTERSIGN_DATA_DIR: dataDir } });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
  });
  afterAll(async () => {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("runs the migrations and decides with a durable row", async () => {
    expect(service.database.kind).toBe("pglite");
    const body = assetTransfer();
    const delivery = await cosigner.deliver(body);
    expect(delivery.verdict).toBe("signed");
    const row = await service.database.db.selectFrom("decisions").selectAll().where("transaction_name", "=", body.name).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ decision: "allow", sign_transaction: true, replayed: false });
    expect(row.transaction).toEqual(body);
  });

  it("repeats final decisions and denies conflicting snapshots, concurrently", async () => {
    const body = assetTransfer();
    const deliveries = await Promise.all(Array.from({ length: 20 }, () => cosigner.deliver(body)));
    expect(deliveries.every((d) => d.verdict === "signed")).toBe(true);
    const conflict = await cosigner.deliver(assetTransfer({ name: body.name, amount: "9" }));
    expect(conflict.body).toMatchObject({ signTransaction: false, reasons: ["conflicting snapshot"] });
    const rows = await service.database.db.selectFrom("decisions").select(["replayed"]).where("transaction_name", "=", body.name).execute();
    expect(rows.filter((r) => !r.replayed)).toHaveLength(2); // the final allow and the conflicting deny
    expect(rows).toHaveLength(21);
  });

  it("keeps its decisions across a restart of the service", async () => {
    const body = assetTransfer();
    await cosigner.deliver(body);
    await service.stop();
    service = await startTestService({ env: { COUNTERSIGN_DATA_DIR: dataDir } });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
    const again = await cosigner.deliver(body);
    expect(again.body).toMatchObject({ signTransaction: true, replayOf: expect.any(String) });
  });
});
