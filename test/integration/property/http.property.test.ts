/**
 * A bounded sample of the generated and mutated bodies through the real HTTP service on a real
 * Postgres database, with the permissive policy and no address-book sync: never a 5xx except the
 * deliberate 503 defer, a 200 always carries a boolean answer, and a signature only where the
 * oracle allows it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notConfiguredView } from "../../../src/core/addressbook/types.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService } from "../../support/service.js";
import { generatedBody } from "../../support/property/bodies.js";
import { mutatedBody } from "../../support/property/mutations.js";
import { permissiveAllows, read } from "../../support/property/oracle.js";
import { permissiveDir } from "../../support/property/policies.js";
import { counted, sample, PROPERTY_TEST_TIMEOUT_MS } from "../../support/property/run.js";
import { VAULT } from "../../support/property/world.js";

const PER_GENERATOR = 150;

describe("generated bodies through the HTTP service on Postgres", { timeout: PROPERTY_TEST_TIMEOUT_MS }, () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    service = await startTestService({ database: tdb.handle, policiesDir: permissiveDir() });
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  const bodies: [string, unknown[]][] = [
    ["generated from the OpenAPI schema", sample(generatedBody, PER_GENERATOR)],
    ["mutated from valid bodies", sample(mutatedBody, PER_GENERATOR)],
  ];

  it.each(bodies)(counted("%s: no 5xx but a deliberate 503, and signed only what the oracle allows", PER_GENERATOR), async (_, list) => {
    const unsynced = notConfiguredView(VAULT);
    const statuses = new Map<number, number>();
    for (const body of list) {
      const response = await fetch(`${service.url}/v1/cosigner/webhook`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as { signTransaction?: unknown; error?: { code?: string } };
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const context = JSON.stringify({ status: response.status, answer, body });
      expect([200, 400, 413, 415, 503], context).toContain(response.status);
      if (response.status === 503) expect(answer.error?.code, context).toBe("DEFERRED");
      if (response.status === 200) expect(typeof answer.signTransaction, context).toBe("boolean");
      if (answer.signTransaction === true) expect(permissiveAllows(read(body, unsynced)), context).toBeNull();
    }
    // The sample exercises both answers, not only refusals.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
  });
});
