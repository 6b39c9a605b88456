/** `countersign explain` and `countersign review list|show|approve|reject`. */
import { Option, type Command } from "commander";
import { explain } from "../commands/explain.js";
import { REVIEW_STATES, reviewCommand, type ReviewRequest, type ReviewState } from "../commands/review.js";
import { NO_PRICES, type PriceBook } from "../core/facts/dollars.js";
import { statedPrices, statedPricesSchema } from "../policy/stated-prices.js";
import { parsePricePins } from "../assets/price-pins.js";
import { defaultPolicies, type Cli } from "./program.js";
import { withDatabase } from "../commands/with-database.js";

interface ExplainOptions {
  now?: string;
  policies?: string;
  json?: boolean;
  decision?: string;
  prices?: string;
}

export function explainCommand(program: Command, cli: Cli): void {
  program
    .command("explain")
    .description("evaluate one webhook body against the bundle and print the trace; or, with --decision, the trace of a recorded decision")
    .argument("[file]", "the webhook body, - for standard input", "-")
    .option("--now <time>", "evaluate at this RFC 3339 time (default now)")
    .option("--policies <dir>", "the bundle (default: COUNTERSIGN_POLICIES, else ./policies)")
    .option("--json", "print the trace as JSON")
    .option("--decision <id>", "print the trace of this recorded decision (every rule, operand values)")
    .option(
      "--prices <json>",
      'USD prices to decide with, as a policy test case states them: {"assets/native.ethereum-mainnet": "3000.25"} (each wins over COUNTERSIGN_ASSET_PRICES)',
    )
    .action(cli.exits((file: string, options: ExplainOptions) => runExplain(file, options, cli)));
}

async function runExplain(file: string, options: ExplainOptions, cli: Cli): Promise<number> {
  const policies = options.policies ?? defaultPolicies();
  const json = options.json ?? false;
  if (options.decision !== undefined) {
    const { explainDecision } = await import("../commands/explain-decision.js");
    const { readDecision } = await import("../audit/decision-view.js");
    const id = options.decision;
    const { decisionThroughService, locallyOrThroughService } = await import("../commands/service-reader.js");
    return locallyOrThroughService(
      () => withDatabase((db) => explainDecision((i) => readDecision(db, i), id, { json }, cli.out)),
      (ask) => explainDecision(decisionThroughService(ask), id, { json }, cli.out),
    );
  }
  const now = options.now ? new Date(options.now) : new Date();
  if (Number.isNaN(now.getTime())) {
    cli.fail("countersign: --now must be an RFC 3339 time");
    return 2;
  }
  const pins = parsePricePins(process.env.COUNTERSIGN_ASSET_PRICES);
  if (pins.problems.length > 0) {
    cli.fail(`countersign: ${pins.problems.join("; ")}`);
    return 2;
  }
  const stated = statedPricesOption(options.prices);
  if (typeof stated === "string") {
    cli.fail(`countersign: --prices ${stated}`);
    return 2;
  }
  // Offline there is no platform to ask: the operator's pins stand in, as they do for assets the
  // platform does not price, and a price stated on the command line wins for its asset.
  const prices: PriceBook = new Map([...pins.pins, ...stated]);
  return explain({ file, policies, now, json, readStdin, prices }, cli.out);
}

/** The --prices object, or why it is not one. */
function statedPricesOption(text: string | undefined): PriceBook | string {
  if (text === undefined) return NO_PRICES;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "must be a JSON object of asset name to a USD price";
  }
  const parsed = statedPricesSchema.safeParse(value);
  return parsed.success ? statedPrices(parsed.data) : `must be a JSON object of asset name to a USD price: ${parsed.error.issues[0]?.message ?? "invalid"}`;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export function reviewCommands(program: Command, cli: Cli): void {
  const review = program
    .command("review")
    .description("reviews of deferred transactions, through the running service's review API")
    .addHelpText(
      "after",
      "\nThe review commands call the running service at COUNTERSIGN_URL (default http://127.0.0.1:8080)\nas the reviewer of COUNTERSIGN_REVIEWER_TOKEN (a reviewer token or an OIDC ID token).",
    );
  const run = (request: ReviewRequest) => reviewCommand(request, { out: cli.out, fail: cli.fail, env: process.env });
  const name = ["<name>", "the transaction: vaults/{vault_id}/transactions/{transaction_id}"] as const;
  review
    .command("list")
    .description("reviews that ask a group of yours, newest first")
    .addOption(new Option("--state <state>", "only reviews in this state").choices(REVIEW_STATES))
    .option("--json", "print them as JSON")
    .action(cli.exits((options: { state?: ReviewState; json?: boolean }) => run({ verb: "list", state: options.state, json: options.json ?? false })));
  review
    .command("show")
    .description("one review: the transaction's explanation, approvals, state")
    .argument(...name)
    .option("--json", "print it as JSON")
    .action(cli.exits((transaction: string, options: { json?: boolean }) => run({ verb: "show", name: transaction, json: options.json ?? false })));
  for (const verb of ["approve", "reject"] as const) {
    review
      .command(verb)
      .description(verb === "approve" ? "approve the transaction for your group" : "reject the transaction; the co-signer then refuses it")
      .argument(...name)
      .option("--comment <text>", verb === "approve" ? "a note kept with your approval" : "why (required)")
      .option("--json", "print the review as JSON")
      .action(
        cli.exits((transaction: string, options: { comment?: string; json?: boolean }) => run({ verb, name: transaction, comment: options.comment, json: options.json ?? false })),
      );
  }
}
