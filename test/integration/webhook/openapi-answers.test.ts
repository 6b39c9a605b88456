/**
 * `GET /openapi.json` is the OpenAPI document of this interface (docs/interface.md section 6): every
 * status an endpoint answers is listed for it, and every field an answer carries is declared in
 * the schema the document gives for that status. Clients are generated from the document, so an
 * answer it does not describe (a 415, the evaluation's `policyOutcome`, the defer's
 * `policyVersion`) is one they cannot read.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assetTransfer, COLD_WALLET, ETH, HOT_WALLET, transactionName } from "../../support/bodies.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { writeReviewerTokens } from "../../support/reviewers.js";
import { readExample, startTestService } from "../../support/service.js";

const WEBHOOK_TOKEN = "webhook-token-0123456789abcdef";
const ADMIN_TOKEN = "admin-token-0123456789abcdef";

type Schema = { $ref?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[] };
type Listed = { headers?: Record<string, unknown>; content?: Record<string, { schema?: Schema }> };
type OpenApi = { paths: Record<string, Record<string, { responses: Record<string, Listed> }>>; components: { schemas: Record<string, Schema> } };

describe("the OpenAPI document describes every answer the service gives", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let doc: OpenApi;
  const reviewers = writeReviewerTokens(["alice@treasury.example"]);

  beforeAll(async () => {
    tdb = await createTestDatabase();
    service = await startTestService({
      database: tdb.handle,
      env: { COUNTERSIGN_WEBHOOK_TOKEN: WEBHOOK_TOKEN, COUNTERSIGN_ADMIN_TOKEN: ADMIN_TOKEN, COUNTERSIGN_REVIEWER_TOKENS_FILE: reviewers.file },
    });
    doc = (await (await fetch(`${service.url}/openapi.json`)).json()) as OpenApi;
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(doc.components.schemas[schema.$ref.split("/").pop()!]!) : schema);

  /** The declared properties of a schema, through $ref, anyOf, oneOf and allOf; null when it declares none (any object). */
  function declared(schema: Schema): Record<string, Schema> | null {
    const s = resolve(schema);
    const parts = [s, ...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])].map(resolve);
    const properties = parts.flatMap((p) => (p.properties ? Object.entries(p.properties) : []));
    return properties.length > 0 ? Object.fromEntries(properties) : null;
  }

  function itemsOf(schema: Schema): Schema | undefined {
    const s = resolve(schema);
    return [s, ...(s.anyOf ?? []), ...(s.oneOf ?? [])].map(resolve).find((p) => p.items)?.items;
  }

  /** Paths of the fields in `value` that `schema` does not declare. */
  function undeclared(value: unknown, schema: Schema, at = ""): string[] {
    if (Array.isArray(value)) {
      const items = itemsOf(schema);
      return items ? value.flatMap((v, i) => undeclared(v, items, `${at}[${i}]`)) : [];
    }
    if (value === null || typeof value !== "object") return [];
    const properties = declared(schema);
    if (properties === null) return [];
    return Object.entries(value).flatMap(([key, v]) => (key in properties ? undeclared(v, properties[key]!, `${at}.${key}`) : [`${at}.${key}`]));
  }

  /** Checks that `response`'s status is listed for the path and that its JSON body is fully declared. */
  async function expectDescribed(path: string, method: string, response: Response): Promise<void> {
    const listed = doc.paths[path]?.[method]?.responses[String(response.status)];
    expect(listed, `${method.toUpperCase()} ${path} answers ${response.status}, which the document does not list`).toBeDefined();
    const headers = Object.keys(listed!.headers ?? {});
    expect(headers, `${method.toUpperCase()} ${path} ${response.status} declares no X-Request-Id`).toContain("X-Request-Id");
    expect(
      headers.filter((h) => response.headers.get(h) === null),
      `headers declared for ${method.toUpperCase()} ${path} ${response.status} but not answered`,
    ).toEqual([]);
    const schema = listed!.content?.["application/json"]?.schema;
    expect(schema, `${method.toUpperCase()} ${path} ${response.status} has no JSON schema`).toBeDefined();
    expect(undeclared(await response.json(), schema!)).toEqual([]);
  }

  const webhook = (body: string | Buffer, headers: Record<string, string> = {}) =>
    fetch(`${service.url}/v1/cosigner/webhook`, { method: "POST", body, headers: { authorization: `Bearer ${WEBHOOK_TOKEN}`, "content-type": "application/json", ...headers } });
  const evaluate = (body: string | Buffer, headers: Record<string, string> = {}) =>
    fetch(`${service.url}/v1/evaluate`, { method: "POST", body, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json", ...headers } });
  // An ERC-20 transfer stating its amount twice: without a custody API or a pin its decimals are unknown, so it defers.
  const undecidedToken = () => JSON.stringify({ ...readExample("api-shape-token-transfer-evm.json"), name: transactionName("openapi") });

  it("the webhook: allow, deny, defer, and each refusal", async () => {
    const path = "/v1/cosigner/webhook";
    await expectDescribed(path, "post", await webhook(JSON.stringify(assetTransfer())));
    await expectDescribed(path, "post", await webhook(JSON.stringify(assetTransfer({ destination: "0x1111111111111111111111111111111111111111" }))));
    const deferred = await webhook(undecidedToken());
    expect(deferred.status).toBe(503);
    await expectDescribed(path, "post", deferred);
    await expectDescribed(path, "post", await webhook("{"));
    await expectDescribed(path, "post", await webhook(JSON.stringify(assetTransfer()), { authorization: "Bearer wrong" }));
    await expectDescribed(path, "post", await webhook(" ".repeat(2 * 1024 * 1024)));
    const compressed = await webhook(gzipSync(JSON.stringify(assetTransfer())), { "content-encoding": "compress" });
    expect(compressed.status).toBe(415);
    await expectDescribed(path, "post", compressed);
  });

  it("the dry run: an evaluation held outside the policy, and a body it cannot read", async () => {
    const held = await evaluate(undecidedToken());
    expect(held.status).toBe(200);
    await expectDescribed("/v1/evaluate", "post", held);
    await expectDescribed("/v1/evaluate", "post", await evaluate(JSON.stringify(assetTransfer()), { "content-encoding": "compress" }));
  });

  it("the policy status and the probes", async () => {
    await expectDescribed("/v1/policy", "get", await fetch(`${service.url}/v1/policy`));
    await expectDescribed("/healthz", "get", await fetch(`${service.url}/healthz`));
    await expectDescribed("/readyz", "get", await fetch(`${service.url}/readyz`));
  });

  it("a recorded decision, a transaction's decisions, and their refusals", async () => {
    const name = transactionName("openapi-read");
    const decided = (await (await webhook(JSON.stringify(assetTransfer({ name })))).json()) as { decisionId: string };
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    await expectDescribed("/v1/decisions/{id}", "get", await fetch(`${service.url}/v1/decisions/${decided.decisionId}`, { headers: admin }));
    await expectDescribed("/v1/decisions/{id}", "get", await fetch(`${service.url}/v1/decisions/00000000-0000-4000-8000-000000000000`, { headers: admin }));
    await expectDescribed("/v1/decisions/{id}", "get", await fetch(`${service.url}/v1/decisions/${decided.decisionId}`));
    await expectDescribed("/v1/decisions", "get", await fetch(`${service.url}/v1/decisions?transaction=${name}`, { headers: admin }));
    await expectDescribed("/v1/decisions", "get", await fetch(`${service.url}/v1/decisions`, { headers: admin }));
  });

  it("an audit verify report and its refusals", async () => {
    const verify = (body: string, headers: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}` }) =>
      fetch(`${service.url}/v1/audit/verify`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body });
    const intact = await verify("{}");
    expect(intact.status).toBe(200);
    await expectDescribed("/v1/audit/verify", "post", intact);
    await expectDescribed("/v1/audit/verify", "post", await verify(JSON.stringify({ from: "2026-11-01T00:00:00Z" })));
    await expectDescribed("/v1/audit/verify", "post", await verify("{}", {}));
  });

  it("a replay report and its refusals", async () => {
    const replay = (body: object, headers: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}` }) =>
      fetch(`${service.url}/v1/policy/replay`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) });
    const policy = { path: "policy.yaml", content: readFileSync(path.resolve(import.meta.dirname, "../../../policies/policy.yaml")).toString("base64") };
    const request = { candidate: { directory: "policies", files: [policy] }, from: "2026-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z", now: new Date().toISOString() };
    const report = await replay(request);
    expect(report.status).toBe(200);
    await expectDescribed("/v1/policy/replay", "post", report);
    await expectDescribed("/v1/policy/replay", "post", await replay({ ...request, candidate: { directory: "x", files: [{ path: "notes.txt", content: "" }] } }));
    await expectDescribed("/v1/policy/replay", "post", await replay(request, {}));
  });

  it("a review and its explanation", async () => {
    const name = transactionName("openapi-review");
    const body = assetTransfer({ name, asset: ETH, amount: "6", source: HOT_WALLET, destination: COLD_WALLET });
    expect((await webhook(JSON.stringify(body))).status).toBe(503);
    const review = await fetch(`${service.url}/v1/${name}/review`, { headers: { authorization: `Bearer ${reviewers.tokens["alice@treasury.example"]}` } });
    expect(review.status).toBe(200);
    await expectDescribed("/v1/vaults/{vault}/transactions/{transaction}/review", "get", review);
  });
});
