import { metrics } from "@opentelemetry/api";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CosignerSimulator } from "../support/cosigner.js";
import { assetTransfer } from "../support/bodies.js";
import { eventKeys } from "../support/event-sender.js";
import { CollectingReader } from "../support/metric-reader.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { startTestService } from "../support/service.js";
import { scratchDir } from "../support/scratch.js";

describe("metrics through OpenTelemetry", () => {
  const reader = new CollectingReader();
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;

  beforeAll(async () => {
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    tdb = await createTestDatabase();
    const keyFile = path.join(scratchDir("key"), "events.pub");
    writeFileSync(keyFile, (await eventKeys()).platform.publicKeyPem);
    service = await startTestService({ database: tdb.handle, env: { COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE: keyFile } });
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
    metrics.disable();
  });

  it("counts event deliveries refused for their signature", async () => {
    const post = (headers: Record<string, string>) => fetch(`${service.url}/v1/events`, { method: "POST", headers, body: JSON.stringify({ id: "e1", type: "TEST" }) });
    expect((await post({})).status).toBe(401);
    expect((await post({ "x-service-signature": Buffer.from("not a signature").toString("base64") })).status).toBe(401);
    expect(await reader.counter("countersign.events.signature_rejected")).toBe(2);
  });

  it("counts decisions by outcome, repeats apart", async () => {
    const cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
    const body = assetTransfer();
    await cosigner.deliver(body);
    await cosigner.deliver(body);
    await cosigner.deliver(assetTransfer({ destination: "0x1111111111111111111111111111111111111111" }));
    expect(await reader.counter("countersign.decisions", { outcome: "allow", replayed: false })).toBe(1);
    expect(await reader.counter("countersign.decisions", { outcome: "allow", replayed: true })).toBe(1);
    expect(await reader.counter("countersign.decisions", { outcome: "deny" })).toBe(1);
  });
});
