/**
 * `GET /openapi.json`, generated from the zod schemas that validate requests (src/transaction/
 * schemas.ts) and describe answers (./answers.ts). The routes write their answers themselves, so
 * test/webhook/openapi-answers.test.ts holds real answers to the document: each status listed,
 * each field declared.
 */
import { z } from "zod";
import * as tx from "../transaction/schemas.js";
import * as answers from "./answers.js";
import { reviewActionBody } from "./routes/review.js";

const nameField = z.string().regex(/^vaults\/[A-Za-z0-9_-]+\/transactions\/[A-Za-z0-9_-]+$/);

/** The transaction object in either shape; unknown fields are kept in the audit snapshot. */
const transactionBody = tx.commonFields.extend({
  name: nameField,
  details: z
    .looseObject({
      assetTransfer: tx.assetTransfer.optional(),
      assetBatchTransfer: tx.assetBatchTransfer.optional(),
      stellarTransaction: tx.stellarTransaction.optional(),
      evmAccountDelegation: z.looseObject({}).optional(),
    })
    .nullish(),
  transfers: z.array(tx.apiTransfer).nullish(),
  stellarTransaction: tx.apiStellarTransaction.nullish(),
});

const webhookBody = z.union([transactionBody, z.looseObject({ transaction: transactionBody })]);

function schema(s: z.ZodType): unknown {
  return z.toJSONSchema(s, { io: "input", unrepresentable: "any", target: "openapi-3.0" });
}

const json = (ref: string) => ({ "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } });
const errorResponse = (description: string) => ({ description, content: json("Error") });

/** What reading a request body can answer besides the route's own errors (src/http/json-body.ts). */
const bodyErrors = {
  "413": errorResponse("body over the size limit"),
  "415": errorResponse("UNSUPPORTED_MEDIA_TYPE: a Content-Encoding other than gzip, deflate, br or identity"),
};

const reviewerErrors = {
  "401": errorResponse("missing or invalid reviewer credential (the webhook and admin tokens are not reviewer credentials)"),
  "403": errorResponse("review is not configured"),
};

const transactionParameters = ["vault", "transaction"].map((name) => ({ name, in: "path", required: true, schema: { type: "string", pattern: "^[A-Za-z0-9_-]+$" } }));

function reviewAction(summary: string, commentRequired: boolean): object {
  return {
    post: {
      summary,
      security: [{ reviewer: [] }],
      parameters: transactionParameters,
      requestBody: { required: commentRequired, content: json("ReviewAction") },
      responses: {
        "200": { description: "the review after the action", content: json("Review") },
        "400": errorResponse(commentRequired ? "no comment, or a malformed body" : "malformed body"),
        "401": reviewerErrors["401"],
        "403": errorResponse("NOT_A_REVIEWER (in no required group) or INITIATOR_CANNOT_APPROVE"),
        "404": errorResponse("no review for this transaction"),
        "409": errorResponse("REVIEW_CLOSED: approved, rejected or expired, or the transaction already decided"),
        ...bodyErrors,
      },
    },
  };
}

let cached: object | undefined;

export function openApiDocument(): object {
  cached ??= build();
  return cached;
}

function build(): object {
  return {
    openapi: "3.0.3",
    info: { title: "countersign", version: "1", description: "Policy decisions for the custody platform's co-signer." },
    components: {
      securitySchemes: {
        webhookToken: { type: "http", scheme: "bearer", description: "COUNTERSIGN_WEBHOOK_TOKEN (also as Basic password or ?token=)" },
        adminToken: { type: "http", scheme: "bearer", description: "COUNTERSIGN_ADMIN_TOKEN" },
        reviewer: { type: "http", scheme: "bearer", description: "an OpenID Connect ID token of COUNTERSIGN_OIDC_ISSUER, or a token of COUNTERSIGN_REVIEWER_TOKENS_FILE" },
      },
      schemas: {
        WebhookBody: schema(webhookBody),
        SignAnswer: schema(answers.signAnswer),
        EvaluateAnswer: schema(answers.evaluateAnswer),
        PolicyStatus: schema(answers.policyStatus),
        Readiness: schema(answers.readiness),
        Error: schema(answers.errorEnvelope),
        Review: schema(answers.review),
        ReviewList: schema(answers.reviewList),
        ReviewAction: schema(reviewActionBody),
      },
    },
    paths: {
      "/v1/cosigner/webhook": {
        post: {
          summary: "Decide whether the co-signer signs a transaction",
          security: [{ webhookToken: [] }],
          requestBody: { required: true, content: json("WebhookBody") },
          responses: {
            "200": { description: "allow (signTransaction true) or deny (false, cancels for good)", content: json("SignAnswer") },
            "400": errorResponse("malformed JSON or not a valid transaction"),
            "401": errorResponse("missing or wrong webhook token"),
            ...bodyErrors,
            "503": errorResponse("deferred: the transaction stays pending (Retry-After)"),
          },
        },
      },
      "/v1/evaluate": {
        post: {
          summary: "Dry run: decision, matched rules and facts; nothing recorded",
          security: [{ adminToken: [] }],
          requestBody: { required: true, content: json("WebhookBody") },
          responses: {
            "200": { description: "the evaluation", content: json("EvaluateAnswer") },
            "400": errorResponse("malformed"),
            "401": errorResponse("missing or wrong admin token"),
            "403": errorResponse("admin token not configured"),
            ...bodyErrors,
            "503": errorResponse("UNAVAILABLE: the facts (address book, window totals) cannot be read right now"),
          },
        },
      },
      "/v1/events": {
        post: {
          summary: "The custody platform's event webhook (x-service-signature: RSA-PSS SHA-512, base64)",
          requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["id", "type"] } } } },
          responses: {
            "200": {
              description: "stored (or already stored: duplicate true) and its effect applied",
              content: { "application/json": { schema: { type: "object", properties: { received: { type: "boolean" }, duplicate: { type: "boolean" } } } } },
            },
            "400": errorResponse("signed, but not JSON or not an event"),
            "401": errorResponse("signature missing or wrong; nothing stored"),
            ...bodyErrors,
            "503": errorResponse("not stored or its effect failed; the platform redelivers"),
          },
        },
      },
      "/v1/reviews": {
        get: {
          summary: "Reviews of deferred transactions that name a reviewer group of the caller's, newest first",
          security: [{ reviewer: [] }],
          parameters: [{ name: "state", in: "query", required: false, schema: { type: "string", enum: ["open", "approved", "rejected", "expired"] } }],
          responses: {
            "200": { description: "the reviews some requirement of which names a group of the caller's", content: json("ReviewList") },
            ...reviewerErrors,
            "403": errorResponse("NOT_A_REVIEWER (in no reviewer group), or review is not configured"),
          },
        },
      },
      "/v1/vaults/{vault}/transactions/{transaction}/review": {
        get: {
          summary: "One transaction's review, with its explanation",
          security: [{ reviewer: [] }],
          parameters: transactionParameters,
          responses: {
            "200": { description: "the review", content: json("Review") },
            "404": errorResponse("no review for this transaction"),
            ...reviewerErrors,
            "403": errorResponse("NOT_A_REVIEWER (in no reviewer group, or in none this review requires), or review is not configured"),
          },
        },
      },
      "/v1/vaults/{vault}/transactions/{transaction}/review:approve": reviewAction("Approve the review (a second approval by the same identity changes nothing)", false),
      "/v1/vaults/{vault}/transactions/{transaction}/review:reject": reviewAction("Reject the review: the next delivery is denied for good", true),
      "/review": { get: { summary: "The review page for people (HTML)", responses: { "200": { description: "HTML", content: { "text/html": {} } } } } },
      "/v1/policy": { get: { summary: "Active policy", responses: { "200": { description: "status", content: json("PolicyStatus") } } } },
      "/healthz": { get: { summary: "Liveness", responses: { "200": { description: "alive" } } } },
      "/readyz": {
        get: {
          summary: "Readiness",
          responses: { "200": { description: "ready", content: json("Readiness") }, "503": { description: "not ready", content: json("Readiness") } },
        },
      },
      "/openapi.json": { get: { summary: "This document", responses: { "200": { description: "OpenAPI 3.0" } } } },
    },
  };
}
