/** zod schemas of countersign's answers: the source of the OpenAPI document's response types. */
import { z } from "zod";

export const errorEnvelope = z.object({
  error: z.object({
    code: z.string().describe("stable error code, e.g. BAD_JSON, INVALID_TRANSACTION, UNAUTHORIZED, DEFERRED"),
    message: z.string(),
    requestId: z.string(),
    decisionId: z.uuid().optional().describe("for a policy defer: the recorded decision"),
    policyVersion: z.string().optional().describe("for a policy defer: the version of the bundle that deferred"),
    reasons: z.array(z.string()).optional(),
    details: z.unknown().optional(),
  }),
});

export const signAnswer = z.object({
  signTransaction: z.boolean().describe("true signs; false cancels the transaction for good"),
  decisionId: z.uuid().describe("id of the decisions row recorded for this delivery"),
  policyVersion: z.string(),
  replayOf: z.uuid().optional().describe("for a repeated delivery: the final decision it repeats (or conflicts with)"),
  reasons: z.array(z.string()).optional().describe("present when signTransaction is false"),
});

const decisionKind = z.enum(["allow", "deny", "defer"]);

export const ruleMatch = z.object({
  rule: z.string(),
  decision: decisionKind,
  transfer: z.number().int().nullable(),
  error: z.string().optional(),
});

const comparison = z.object({
  op: z.string(),
  operands: z.array(z.object({ from: z.string().optional().describe("a var path, or the expression"), value: z.unknown() })),
  result: z.boolean().optional(),
  error: z.string().optional(),
  text: z.string().describe("e.g. velocity.daily_out.amountAfter = 120500 > 100000"),
});

const evaluation = z.object({
  transfer: z.number().int().nullable(),
  decision: z.enum(["allow", "deny", "defer"]),
  matched: z.array(ruleMatch),
  errors: z.array(z.object({ rule: z.string(), error: z.string() })),
  byDefault: z.boolean(),
  rules: z
    .array(
      z.object({
        rule: z.string(),
        decision: z.enum(["allow", "deny", "defer"]),
        result: z.enum(["matched", "not matched", "error"]),
        matched: z.boolean().describe("how the rule counted (an error counts as matched for deny and defer)"),
        error: z.string().optional(),
        comparisons: z.array(comparison),
      }),
    )
    .describe("every rule in bundle order, with its comparisons' operand values"),
});

/** One USD price a decision used (docs/interface.md section 10). */
const priceQuote = z.object({
  asset: z.string(),
  usd: z.string().describe("USD for one whole unit, an exact decimal"),
  fetchedAt: z.string().describe("RFC 3339: when the platform answered, or the pin was read"),
  source: z.enum(["platform", "pin"]),
});

export const evaluateAnswer = z.object({
  decision: z.enum(["allow", "deny", "defer"]),
  reasons: z.array(z.string()),
  policyVersion: z.string(),
  policyDigest: z.string(),
  matchedRules: z.array(ruleMatch),
  evaluations: z.array(evaluation),
  facts: z.array(z.record(z.string(), z.unknown())).describe("one facts document per evaluation (docs/interface.md section 4)"),
  policyOutcome: decisionKind
    .optional()
    .describe(
      "present when something outside the policy holds the transaction (a stale address book, unknown token decimals, an unknown source wallet, an unknown price): what the policy alone decided",
    ),
  prices: z.array(priceQuote).describe("the USD prices the facts were built with; [] when the bundle reads no dollars"),
});

const failedCase = z.object({ file: z.string(), name: z.string(), failures: z.array(z.string()) });

const bundleStatus = {
  version: z.string(),
  digest: z.string(),
  directory: z.string(),
  loadedAt: z.string(),
  lastReloadAt: z.string().nullable(),
  lastReloadError: z.string().nullable().describe("why the last reload was refused (the bundle does not load, or its own test cases fail)"),
  lastReloadFailedCases: z.array(failedCase),
};

const shadowLoadError = z
  .object({
    code: z.enum(["invalid", "tests_failed", "unreadable", "unclaimed"]).describe("as the reason of countersign.shadow.load_failures"),
    message: z.string(),
    failedCases: z.array(failedCase).describe("the candidate's own test cases that failed"),
  })
  .describe("why the candidate on disk is not the one evaluated");

const shadowStatus = z
  .union([
    z.object({
      loaded: z.literal(true),
      ...bundleStatus,
      error: shadowLoadError.nullable().describe("set when the last reload was refused; the candidate before it is still evaluated"),
    }),
    z.object({
      loaded: z.literal(false).describe("no candidate passed admission since boot: shadow evaluation is off"),
      directory: z.string(),
      lastReloadAt: z.string().nullable(),
      error: shadowLoadError,
    }),
  ])
  .describe("the COUNTERSIGN_SHADOW_POLICIES candidate's status");

export const policyStatus = z.object({
  ...bundleStatus,
  addressBook: z.unknown().optional(),
  newerBundleElsewhere: z
    .object({ version: z.string(), digest: z.string(), adoptedAt: z.string() })
    .nullable()
    .optional()
    .describe("a bundle adopted after this one that a live process decides by (this process then decides nothing), else null"),
  shadow: shadowStatus.nullable().optional().describe("null when COUNTERSIGN_SHADOW_POLICIES is not set"),
  verifyDeliveries: z
    .object({
      mode: z.enum(["platform", "off"]).describe("COUNTERSIGN_VERIFY_DELIVERIES in force"),
      circuit: z.enum(["closed", "open", "half-open"]).optional().describe("with the check on: open while the custody API is not asked (deliveries defer)"),
    })
    .optional()
    .describe("the platform check of each delivery (docs/interface.md section 11)"),
});

export const health = z.object({ status: z.literal("ok") });

export const eventReceipt = z.object({ received: z.literal(true), duplicate: z.boolean().describe("true when an event of this id was stored before") });

export const readiness = z.object({
  status: z.enum(["ready", "not ready"]),
  policy: z.object({ version: z.string() }),
  verifyDeliveries: z.enum(["platform", "off"]).optional().describe("COUNTERSIGN_VERIFY_DELIVERIES in force"),
  checks: z.record(z.string(), z.string()),
});

const reviewActionView = z.object({ identity: z.string(), at: z.string().describe("RFC 3339"), comment: z.string().nullable() });

export const review = z.object({
  transactionName: z.string(),
  vault: z.string(),
  state: z.enum(["open", "approved", "rejected", "expired"]),
  openedAt: z.string(),
  expiresAt: z.string(),
  contentDigest: z.string().describe("the content the review and its approvals bind to"),
  requirements: z.array(z.object({ rule: z.string(), group: z.string(), quorum: z.number().int(), approvals: z.array(reviewActionView) })),
  rejection: reviewActionView.nullable(),
  openedBy: z.uuid().describe("the deferring decision that opened the review"),
  explanation: z
    .object({
      kind: z.string(),
      type: z.string().nullable().optional(),
      subType: z.string().nullable().optional(),
      payloads: z
        .array(z.string())
        .optional()
        .describe("what the transaction carries beside its transfers that can move value or grant authority (tx.payloads); absent on reviews opened before it was kept"),
      initiator: z.string().nullable(),
      note: z.string().nullable(),
      externalId: z.string().nullable(),
      memo: z
        .object({ type: z.string(), data: z.string() })
        .nullable()
        .optional()
        .describe("tx.memo: the memo that says whose account an exchange credits; absent on reviews opened before it was kept"),
      fee: z
        .object({ asset: z.string().nullable(), amount: z.string() })
        .nullable()
        .optional()
        .describe("tx.fee: the network fee the body states, in whole units; absent on reviews opened before it was kept"),
      policyVersion: z.string(),
      reasons: z.array(z.string()),
      transfers: z.array(
        z.object({
          index: z.number().int(),
          network: z.string().nullable(),
          asset: z.string(),
          amount: z.string().nullable(),
          rawAmount: z.string().nullable(),
          usd: z.string().nullable().optional().describe("transfer.usd at opening (exact dollars); null when unpriced, absent on reviews opened before prices"),
          usdPrice: z.string().nullable().optional().describe("transfer.usdPrice: USD for one whole unit, as the decision priced it"),
          source: z.string(),
          destination: z.string(),
          destinationName: z.string().nullable().describe("the address-book entry's name, when the destination is one"),
          destinationInAddressBook: z.boolean(),
          destinationInternal: z.boolean(),
          velocity: z.record(z.string(), z.unknown()).describe("window usage before and after this transfer"),
        }),
      ),
      deferredBy: z.array(
        z.object({
          rule: z.string(),
          reason: z.string().nullable(),
          transfers: z.array(z.number().int().nullable()),
          review: z.object({ group: z.string(), quorum: z.number().int(), expiresAfter: z.string() }).nullable(),
        }),
      ),
    })
    .describe("what the reviewer decides on, as the opening delivery saw it"),
});

export const reviewList = z.object({ reviews: z.array(review) });

const shadowView = z.object({
  policyVersion: z.string(),
  policyDigest: z.string(),
  decision: decisionKind.nullable().describe("null when the candidate failed on these facts"),
  matchedRules: z.array(ruleMatch),
  error: z.string().nullable(),
});

/** A recorded decision: its audit row (src/audit/decision-view.ts). */
export const decisionView = z.object({
  id: z.uuid(),
  decidedAt: z.string().describe("RFC 3339"),
  transactionName: z.string(),
  vault: z.string(),
  decision: decisionKind,
  signTransaction: z.boolean().nullable().describe("null for a defer"),
  httpStatus: z.number().int(),
  replayed: z.boolean().describe("a repeated delivery answered from the final decision, without a second charge"),
  replayOf: z.uuid().nullable().describe("for a repeat or a conflicting delivery: the final decision it refers to"),
  policyVersion: z.string(),
  policyDigest: z.string(),
  matchedRules: z.array(ruleMatch),
  reasons: z.array(z.string()),
  facts: z.array(z.record(z.string(), z.unknown())).describe("one facts document per evaluation (docs/interface.md section 4)"),
  transaction: z.unknown().describe("the transaction as delivered (the audit snapshot)"),
  contentDigest: z.string(),
  requestId: z.string(),
  durationMs: z.number(),
  trace: z.array(z.unknown()).nullable().describe("every rule per evaluation with its comparisons' operands; null on rows recorded before traces were kept"),
  shadow: shadowView.nullable().describe("what the COUNTERSIGN_SHADOW_POLICIES candidate said on the same facts; null when none was evaluated"),
  prices: z.array(priceQuote).describe("the USD prices the evaluation used, as recorded with it; [] when it used none"),
});

export const decisionList = z.object({ decisions: z.array(decisionView).describe("oldest first, at most 500") });
