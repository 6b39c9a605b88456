/**
 * `GET /openapi.json`, generated from the zod schemas that validate requests (src/core/transaction/
 * schemas.ts) and describe answers (./answers.ts). The routes write their answers themselves, so
 * test/integration/webhook/openapi-answers.test.ts holds real answers to the document: each status listed,
 * each field declared.
 */
import { z } from "zod";
import * as tx from "../core/transaction/schemas.js";
import { baseEvent } from "../events/event.js";
import * as answers from "./answers.js";
import { adminErrors, answer, bodyErrors, errorAnswer, HEADERS, htmlAnswer, json, OPEN, schema, unauthorizedAnswer, unavailableAnswer } from "./openapi-parts.js";
import { reviewActionBody, reviewRejectionBody } from "./routes/review.js";
import { verifyOutcomeSchema, verifyRequestSchema } from "../audit/verify-outcome.js";
import { replayReportSchema, replayRequestSchema } from "../replay/replay-request.js";

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

const transactionParameters = ["vault", "transaction"].map((name) => ({ name, in: "path", required: true, schema: { type: "string", pattern: "^[A-Za-z0-9_-]+$" } }));

const reviewerErrors = {
  "401": unauthorizedAnswer("missing or invalid reviewer credential (the webhook and admin tokens are not reviewer credentials)"),
  "403": errorAnswer("review is not configured"),
};

function reviewAction(operationId: string, summary: string, body: "ReviewApproval" | "ReviewRejection"): object {
  const commentRequired = body === "ReviewRejection";
  return {
    post: {
      operationId,
      summary,
      security: [{ reviewer: [] }],
      parameters: transactionParameters,
      requestBody: { required: commentRequired, content: json(body) },
      responses: {
        "200": answer("the review after the action", json("Review")),
        "400": errorAnswer(commentRequired ? "no comment, or a malformed body" : "malformed body"),
        "401": reviewerErrors["401"],
        "403": errorAnswer("NOT_A_REVIEWER (in no required group) or INITIATOR_CANNOT_APPROVE"),
        "404": errorAnswer("no review for this transaction"),
        "409": errorAnswer("REVIEW_CLOSED: approved, rejected or expired, or the transaction already decided"),
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
    servers: [{ url: "/", description: "wherever the service answers (COUNTERSIGN_HOST, COUNTERSIGN_PORT)" }],
    components: {
      securitySchemes: {
        webhookToken: { type: "http", scheme: "bearer", description: "COUNTERSIGN_WEBHOOK_TOKEN (also as Basic password or ?token=)" },
        adminToken: { type: "http", scheme: "bearer", description: "COUNTERSIGN_ADMIN_TOKEN" },
        metricsToken: { type: "http", scheme: "bearer", description: "COUNTERSIGN_METRICS_TOKEN, when set" },
        reviewer: { type: "http", scheme: "bearer", description: "an OpenID Connect ID token of COUNTERSIGN_OIDC_ISSUER, or a token of COUNTERSIGN_REVIEWER_TOKENS_FILE" },
        reviewSession: { type: "apiKey", in: "cookie", name: "countersign_review", description: "the review page's session, set by POST /review/login" },
        eventSignature: {
          type: "apiKey",
          in: "header",
          name: "x-service-signature",
          description: "not a key: the platform's RSA-PSS SHA-512 signature of the body, base64, checked against COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE",
        },
      },
      headers: HEADERS,
      schemas: {
        WebhookBody: schema(webhookBody),
        SignAnswer: schema(answers.signAnswer),
        EvaluateAnswer: schema(answers.evaluateAnswer),
        PolicyStatus: schema(answers.policyStatus),
        Health: schema(answers.health),
        Readiness: schema(answers.readiness),
        Error: schema(answers.errorEnvelope),
        Event: schema(baseEvent),
        EventReceipt: schema(answers.eventReceipt),
        Decision: schema(answers.decisionView),
        DecisionList: schema(answers.decisionList),
        AuditVerifyRequest: schema(verifyRequestSchema),
        AuditVerification: schema(verifyOutcomeSchema),
        ReplayRequest: schema(replayRequestSchema),
        ReplayReport: schema(replayReportSchema),
        Review: schema(answers.review),
        ReviewList: schema(answers.reviewList),
        ReviewApproval: schema(reviewActionBody),
        ReviewRejection: schema(reviewRejectionBody),
      },
    },
    paths: {
      "/v1/cosigner/webhook": {
        post: {
          operationId: "decide",
          summary: "Decide whether the co-signer signs a transaction",
          security: [{ webhookToken: [] }],
          requestBody: { required: true, content: json("WebhookBody") },
          responses: {
            "200": answer("allow (signTransaction true) or deny (false, cancels for good)", json("SignAnswer")),
            "400": errorAnswer("malformed JSON or not a valid transaction"),
            "401": unauthorizedAnswer("missing or wrong webhook token"),
            "409": errorAnswer(
              "DELIVERY_MISMATCH: the body is not what the custody platform holds for its name, or names a transaction it does not have; NOT_AWAITING_SIGNATURE: the platform's copy no longer awaits a signature. Nothing is decided; the refusal is recorded (details.refusalId) and the transaction stays pending",
            ),
            ...bodyErrors,
            "503": unavailableAnswer(
              'DEFERRED: the transaction stays pending; the co-signer asks again (reason "platform check unavailable" when the custody API could not be asked)',
            ),
          },
        },
      },
      "/v1/evaluate": {
        post: {
          operationId: "evaluate",
          summary: "Dry run: decision, matched rules and facts; nothing recorded",
          security: [{ adminToken: [] }],
          requestBody: { required: true, content: json("WebhookBody") },
          responses: {
            "200": answer("the evaluation", json("EvaluateAnswer")),
            "400": errorAnswer("malformed"),
            ...adminErrors,
            ...bodyErrors,
            "503": unavailableAnswer("UNAVAILABLE: the facts (address book, window totals) cannot be read right now"),
          },
        },
      },
      "/v1/decisions/{id}": {
        get: {
          operationId: "getDecision",
          summary: "A recorded decision: its audit row, snapshot, facts, trace and shadow",
          security: [{ adminToken: [] }],
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
          responses: {
            "200": answer("the decision", json("Decision")),
            ...adminErrors,
            "404": errorAnswer("no decision of this id"),
            "503": unavailableAnswer("UNAVAILABLE: the database cannot be read right now"),
          },
        },
      },
      "/v1/decisions": {
        get: {
          operationId: "listDecisions",
          summary: "The decisions recorded for one transaction, repeats included, oldest first",
          security: [{ adminToken: [] }],
          parameters: [{ name: "transaction", in: "query", required: true, schema: { type: "string", pattern: "^vaults/[A-Za-z0-9_-]+/transactions/[A-Za-z0-9_-]+$" } }],
          responses: {
            "200": answer("the decisions (none: an empty list)", json("DecisionList")),
            "400": errorAnswer("INVALID_REQUEST: transaction is missing or not a transaction name"),
            ...adminErrors,
            "503": unavailableAnswer("UNAVAILABLE: the database cannot be read right now"),
          },
        },
      },
      "/v1/audit/verify": {
        post: {
          operationId: "verifyAuditTrail",
          summary: "Recompute the audit hash chain, as `countersign audit verify`: the report (intact or its breaks) or the refusal to read",
          security: [{ adminToken: [] }],
          requestBody: { required: true, content: json("AuditVerifyRequest") },
          responses: {
            "200": answer("the report ({report}: ok false lists the breaks) or the refusal ({refused}: why verify will not read this database)", json("AuditVerification")),
            "400": errorAnswer("BAD_JSON or INVALID_REQUEST: not the options of audit verify"),
            ...adminErrors,
            ...bodyErrors,
            "503": unavailableAnswer("UNAVAILABLE: the audit trail cannot be read right now"),
          },
        },
      },
      "/v1/policy/replay": {
        post: {
          operationId: "replayPolicy",
          summary: "Replay a candidate bundle (its files, sent) on the recorded decisions, as `countersign policy replay`; read-only",
          security: [{ adminToken: [] }],
          requestBody: { required: true, content: json("ReplayRequest") },
          responses: {
            "200": answer("what the candidate would have decided: counts, changed decisions, windows starting short", json("ReplayReport")),
            "400": errorAnswer("BAD_JSON or INVALID_REQUEST: not a replay request, from not before to, or a bundle the loader refuses"),
            ...adminErrors,
            ...bodyErrors,
            "503": unavailableAnswer("UNAVAILABLE: the recorded decisions cannot be read right now"),
          },
        },
      },
      "/v1/events": {
        post: {
          operationId: "receiveEvent",
          summary: "The custody platform's event webhook",
          security: [{ eventSignature: [] }],
          requestBody: { required: true, content: json("Event") },
          responses: {
            "200": answer("stored (or already stored: duplicate true) and its effect applied", json("EventReceipt")),
            "400": errorAnswer("signed, but not JSON or not an event"),
            "401": errorAnswer("signature missing or wrong; nothing stored"),
            ...bodyErrors,
            "503": unavailableAnswer("not stored or its effect failed, or too many deliveries are being read; the platform redelivers"),
          },
        },
      },
      "/v1/reviews": {
        get: {
          operationId: "listReviews",
          summary: "Reviews of deferred transactions that name a reviewer group of the caller's, newest first",
          security: [{ reviewer: [] }],
          parameters: [{ name: "state", in: "query", required: false, schema: { type: "string", enum: ["open", "approved", "rejected", "expired"] } }],
          responses: {
            "200": answer("the reviews some requirement of which names a group of the caller's", json("ReviewList")),
            "400": errorAnswer("state is not one of open, approved, rejected, expired"),
            ...reviewerErrors,
            "403": errorAnswer("NOT_A_REVIEWER (in no reviewer group), or review is not configured"),
          },
        },
      },
      "/v1/vaults/{vault}/transactions/{transaction}/review": {
        get: {
          operationId: "getReview",
          summary: "One transaction's review, with its explanation",
          security: [{ reviewer: [] }],
          parameters: transactionParameters,
          responses: {
            "200": answer("the review", json("Review")),
            "404": errorAnswer("no review for this transaction"),
            ...reviewerErrors,
            "403": errorAnswer("NOT_A_REVIEWER (in no reviewer group, or in none this review requires), or review is not configured"),
          },
        },
      },
      "/v1/vaults/{vault}/transactions/{transaction}/review:approve": reviewAction(
        "approveReview",
        "Approve the review (a second approval by the same identity changes nothing)",
        "ReviewApproval",
      ),
      "/v1/vaults/{vault}/transactions/{transaction}/review:reject": reviewAction("rejectReview", "Reject the review: the next delivery is denied for good", "ReviewRejection"),
      "/review": {
        get: {
          operationId: "reviewPage",
          summary: "The review page for people (HTML); without a session, the sign-in form",
          security: [{ reviewSession: [] }],
          responses: {
            "200": htmlAnswer("the queue of reviews the signed-in reviewer may act on"),
            "401": htmlAnswer("not signed in, or the session expired: the sign-in form"),
            "403": htmlAnswer("review is not configured, or the signed-in identity is in no reviewer group"),
          },
        },
      },
      "/v1/policy": {
        get: {
          operationId: "getPolicy",
          summary: "Active policy; with the admin token, address-book failures in the custody API's own words",
          security: [{}, { adminToken: [] }],
          responses: { "200": answer("status", json("PolicyStatus")) },
        },
      },
      "/healthz": { get: { operationId: "health", summary: "Liveness", security: OPEN, responses: { "200": answer("alive", json("Health")) } } },
      "/readyz": {
        get: {
          operationId: "readiness",
          summary: "Readiness",
          security: OPEN,
          responses: { "200": answer("ready", json("Readiness")), "503": answer("not ready", json("Readiness")) },
        },
      },
      "/metrics": {
        get: {
          operationId: "metrics",
          summary: "Prometheus text exposition of the service's metrics (open, or COUNTERSIGN_METRICS_TOKEN when set)",
          security: [{}, { metricsToken: [] }],
          responses: {
            "200": answer("the metrics", { "text/plain": { schema: { type: "string" } } }),
            "401": unauthorizedAnswer("COUNTERSIGN_METRICS_TOKEN is set and the request did not send it"),
            "503": unavailableAnswer("metrics are not available in this process"),
          },
        },
      },
      "/openapi.json": {
        get: {
          operationId: "openApiDocument",
          summary: "This document",
          security: OPEN,
          responses: { "200": answer("OpenAPI 3.0", { "application/json": { schema: { type: "object" } } }) },
        },
      },
    },
  };
}
