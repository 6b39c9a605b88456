import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../support/cli.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService } from "../../support/service.js";

describe("readiness of the database's schema", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  beforeAll(async () => {
    tdb = await createTestDatabase({ migrate: false });
    service = await startTestService({ databaseUrl: tdb.url, env: { COUNTERSIGN_MIGRATE: "false" } });
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  it("is not ready on a database its migrations never reached, and is once `countersign migrate` has run", async () => {
    const before = await fetch(`${service.url}/readyz`);
    expect(before.status).toBe(503);
    expect(await before.json()).toMatchObject({
      checks: {
        database: "ok",
        schema: expect.stringMatching(/^[0-9]+ migration\(s\) of this build not applied \(first: 20261129T0000_baseline\); run countersign migrate$/),
        velocityWindowClaims: expect.stringMatching(/^the velocity windows in force are not claimed in the database \(never claimed\)/),
      },
    });
    expect((await runCli(["migrate"], { env: { DATABASE_URL: tdb.url } })).code).toBe(0);
    const after = await fetch(`${service.url}/readyz`);
    expect(after.status).toBe(200);
    // The probe claimed the bundle's windows once the migration added the claims.
    expect(await after.json()).toMatchObject({ checks: { database: "ok", schema: "ok", velocityWindowClaims: "ok" } });
    const claims = await tdb.handle.db.selectFrom("velocity_window_claims").select("window_seconds").execute();
    expect(claims.length).toBeGreaterThan(0);
  });
});
