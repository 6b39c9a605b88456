import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assetTransfer } from "../../support/bodies.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService } from "../../support/service.js";

const TOKEN = "s3cret-webhook-token";

describe("co-signer webhook: bad input gets a clear 4xx, never 200", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let url: string;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    service = await startTestService({ database: tdb.handle, env: { COUNTERSIGN_WEBHOOK_TOKEN: TOKEN } });
    url = `${service.url}/v1/cosigner/webhook`;
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  const post = (body: string | Buffer, headers: Record<string, string> = {}, target = url) =>
    fetch(target, { method: "POST", body, headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", ...headers } });

  const withTransfer = (patch: Record<string, unknown>) => {
    const tx = assetTransfer();
    return JSON.stringify({ ...tx, details: { assetTransfer: { ...tx.details.assetTransfer, ...patch } } });
  };

  const cases: [string, () => string | Buffer, number, string][] = [
    ["malformed JSON", () => '{"name": "vaults/v/transactions/t",', 400, "BAD_JSON"],
    ["an empty body", () => "", 400, "BAD_JSON"],
    ["invalid UTF-8", () => Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), 400, "BAD_JSON"],
    ["a JSON array", () => "[]", 400, "NOT_A_TRANSACTION"],
    ["a JSON string", () => '"hello"', 400, "NOT_A_TRANSACTION"],
    ["null", () => "null", 400, "NOT_A_TRANSACTION"],
    ["a body without name", () => JSON.stringify({ details: assetTransfer().details }), 400, "NOT_A_TRANSACTION"],
    ["a malformed name", () => JSON.stringify({ ...assetTransfer(), name: "vaults/v1/wallets/w1" }), 400, "NOT_A_TRANSACTION"],
    ["a name with path traversal", () => JSON.stringify({ ...assetTransfer(), name: "vaults/../transactions/t" }), 400, "NOT_A_TRANSACTION"],
    ["a numeric name", () => JSON.stringify({ ...assetTransfer(), name: 5 }), 400, "NOT_A_TRANSACTION"],
    ["a __proto__ key", () => `{"__proto__": {"admin": true}, ${JSON.stringify(assetTransfer()).slice(1)}`, 400, "BAD_JSON"],
    ["a nested __proto__ key", () => withTransfer({}).replace('"details":{', '"details":{"__proto__":{"x":1},'), 400, "BAD_JSON"],
    ["amount 1e309", () => withTransfer({ amount: "1e309" }), 400, "INVALID_TRANSACTION"],
    ["amount -5", () => withTransfer({ amount: "-5" }), 400, "INVALID_TRANSACTION"],
    ["amount NaN", () => withTransfer({ amount: "NaN" }), 400, "INVALID_TRANSACTION"],
    ["amount 0x10", () => withTransfer({ amount: "0x10" }), 400, "INVALID_TRANSACTION"],
    ["amount as a JSON number", () => withTransfer({ amount: 5 }), 400, "INVALID_TRANSACTION"],
    ["amount in full-width digits", () => withTransfer({ amount: "１２" }), 400, "INVALID_TRANSACTION"],
    ["an empty asset", () => withTransfer({ asset: "" }), 400, "INVALID_TRANSACTION"],
    ["a missing destination", () => withTransfer({ destination: undefined }), 400, "INVALID_TRANSACTION"],
    ["a numeric destination", () => withTransfer({ destination: 12 }), 400, "INVALID_TRANSACTION"],
    ["a NUL character in the note", () => JSON.stringify({ ...assetTransfer(), note: "pay\u0000out" }), 400, "BAD_JSON"],
    ["an unpaired surrogate in an unknown field", () => JSON.stringify({ ...assetTransfer(), extra: "\ud800" }), 400, "BAD_JSON"],
    ["a NUL character in a key", () => JSON.stringify({ ...assetTransfer(), ["k\u0000"]: 1 }), 400, "BAD_JSON"],
    [
      "an API body that is both a delegation and a transfer",
      () =>
        JSON.stringify({
          name: "vaults/5c3f1a2b9d7e/transactions/both1",
          subType: "NATIVE_TRANSFER",
          evmAccountDelegation: { contractAddress: { value: "0x9999999999999999999999999999999999999999" } },
          transfers: [{ sourceAddress: { value: "0x1" }, destinationAddress: { value: "0x2" }, amount: "1", asset: "assets/native.ethereum-mainnet" }],
        }),
      400,
      "INVALID_TRANSACTION",
    ],
    ["a 2 MB body", () => JSON.stringify({ ...assetTransfer(), note: "x".repeat(2 * 1024 * 1024) }), 413, "PAYLOAD_TOO_LARGE"],
    ["a deep nesting bomb", () => "[".repeat(100_000) + "]".repeat(100_000), 400, "BAD_JSON"],
    ["a deep object bomb", () => '{"a":'.repeat(5_000) + "1" + "}".repeat(5_000), 400, "BAD_JSON"],
    // JSON that two readers could read differently: the last amount wins in JSON.parse, the first elsewhere.
    ["an amount given twice", () => withTransfer({ amount: "1" }).replace('"amount":"1"', '"amount":"99999","amount":"1"'), 400, "BAD_JSON"],
    ["a key given twice, once escaped", () => withTransfer({ amount: "1" }).replace('"amount":"1"', '"amount":"99999","am\\u006funt":"1"'), 400, "BAD_JSON"],
    [
      "a number past a double (1e400 reads as Infinity, is written as null)",
      () => JSON.stringify({ ...assetTransfer(), evmMessage: null }).replace('"evmMessage":null', '"evmMessage":1e400'),
      400,
      "BAD_JSON",
    ],
    ["an integer past 2^53", () => JSON.stringify({ ...assetTransfer(), extra: 1 }).replace('"extra":1', '"extra":123456789012345678901'), 400, "BAD_JSON"],
  ];

  it.each(cases)("%s → %i %s, in the envelope, nothing recorded", async (_label, body, status, code) => {
    const before = await countRows();
    const response = await post(body());
    expect(response.status).toBe(status);
    const answer = (await response.json()) as { error: { code: string; message: string; requestId: string } };
    expect(answer.error).toMatchObject({ code, message: expect.any(String), requestId: expect.any(String) });
    expect(answer).not.toHaveProperty("signTransaction");
    expect(await countRows()).toBe(before);
  });

  it("refuses a body in an encoding it cannot read with 415", async () => {
    const response = await post(JSON.stringify(assetTransfer()), { "content-encoding": "compress" });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ error: { code: "UNSUPPORTED_MEDIA_TYPE" } });
  });

  it("still serves after all of that, emoji and all", async () => {
    const response = await post(JSON.stringify({ ...assetTransfer(), note: "payout 💸 ✓" }));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ signTransaction: true });
  });

  describe("webhook token", () => {
    const body = () => JSON.stringify(assetTransfer());
    it.each([
      ["no credentials", {}],
      ["a wrong bearer token", { authorization: "Bearer wrong" }],
      ["a wrong Basic password", { authorization: `Basic ${Buffer.from("cosigner:wrong").toString("base64")}` }],
      ["an empty bearer", { authorization: "Bearer " }],
    ])("refuses %s with 401", async (_label, headers) => {
      const response = await fetch(url, { method: "POST", body: body(), headers: { "content-type": "application/json", ...headers } });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { code: "UNAUTHORIZED" } });
    });

    it("refuses a wrong token in the query", async () => {
      const response = await fetch(`${url}?token=wrong`, { method: "POST", body: body() });
      expect(response.status).toBe(401);
    });

    it("takes no token from a query that gives it twice", async () => {
      const response = await fetch(`${url}?token=${TOKEN}&token=${TOKEN}`, { method: "POST", body: body() });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer realm="countersign"/);
      expect(await response.json()).toMatchObject({ error: { code: "UNAUTHORIZED", message: "webhook token required" } });
    });

    it.each([
      ["a bearer token", { authorization: `Bearer ${TOKEN}` }, ""],
      ["the Basic password (https://cosigner:TOKEN@host/...)", { authorization: `Basic ${Buffer.from(`cosigner:${TOKEN}`).toString("base64")}` }, ""],
      ["the token query parameter", {}, `?token=${TOKEN}`],
    ])("accepts %s", async (_label, headers, query) => {
      const response = await fetch(`${url}${query}`, { method: "POST", body: body(), headers });
      expect(response.status).toBe(200);
    });
  });

  it("takes the path as express did: any letter case, one trailing slash, a query after", async () => {
    for (const path of ["/v1/cosigner/webhook/", "/V1/Cosigner/WEBHOOK", "/v1/cosigner/webhook/?x=1"]) {
      const response = await post(JSON.stringify(assetTransfer()), {}, `${service.url}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ signTransaction: true });
    }
    // Forms a proxy or another router might read as the webhook's path: none reaches a decision.
    const before = await countRows();
    for (const path of [
      "/v1/cosigner/webhooks",
      "/v1/cosigner/webhook//",
      "/v1/cosigner",
      "//v1/cosigner/webhook",
      "/v1%2Fcosigner%2Fwebhook",
      "/v1/cosigner/webhook;x",
      "/v1/cosigner/webhook%00",
    ]) {
      const response = await post(JSON.stringify(assetTransfer()), {}, `${service.url}${path}`);
      expect(response.status, path).toBe(404);
    }
    expect(await countRows()).toBe(before);
  });

  it("answers other methods on the webhook's path with 404 in the envelope", async () => {
    const response = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: "NOT_FOUND" } });
  });

  it("echoes a sane X-Request-Id in the header and the envelope, and replaces one that is not", async () => {
    const echoed = await post("{", { "x-request-id": "cosigner-poll-42" });
    expect(echoed.headers.get("x-request-id")).toBe("cosigner-poll-42");
    expect(await echoed.json()).toMatchObject({ error: { code: "BAD_JSON", requestId: "cosigner-poll-42" } });
    const replaced = await post("{", { "x-request-id": "has spaces; not an id" });
    const id = replaced.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await replaced.json()).toMatchObject({ error: { requestId: id } });
  });

  it("answers an unknown route with 404 in the envelope", async () => {
    const response = await fetch(`${service.url}/v1/nothing`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: "NOT_FOUND" } });
  });

  async function countRows(): Promise<number> {
    const row = await tdb.handle.db
      .selectFrom("decisions")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
});
