/** `countersign policy check|replay|schema`. */
import { Argument, Option, type Command } from "commander";
import type { ReplayCandidate } from "../commands/policy-replay.js";
import { CHECK_FORMATS, policyCheck, type CheckFormat } from "../commands/policy-check.js";
import { SCHEMA_KINDS, type SchemaKind } from "../policy/json-schema.js";
import { FORMATS, type ReplayFormat } from "../replay/format.js";
import { defaultPolicies, type Cli } from "./program.js";
import { withDatabase } from "../commands/with-database.js";

export function policyCommands(program: Command, cli: Cli): void {
  const policy = program.command("policy").description("check a policy bundle, replay it on recorded decisions, print its files' JSON Schemas");
  checkCommand(policy, cli);
  replayCommand(policy, cli);
  schemaCommand(policy, cli);
}

function checkCommand(policy: Command, cli: Cli): void {
  policy
    .command("check")
    .description("validate the bundle and run its tests; exit 1 on any failure, and on a bundle without tests")
    .argument("[dir]", "the bundle's directory (default: COUNTERSIGN_POLICIES, else ./policies)")
    .option("--allow-no-tests", "pass a bundle that has no test cases (by default it fails: a change deleting every test would pass unchecked)")
    .addOption(new Option("--format <format>", "text for people, json or junit (XML) for CI").choices(CHECK_FORMATS).default("text"))
    .action(
      cli.exits(async (dir: string | undefined, options: { allowNoTests?: boolean; format: CheckFormat }) =>
        policyCheck(dir ?? defaultPolicies(), cli.out, { allowNoTests: options.allowNoTests ?? false, format: options.format }),
      ),
    );
}

interface ReplayOptions {
  policies?: string;
  since?: string;
  from?: string;
  to?: string;
  vault?: string;
  format: ReplayFormat;
  failOnChange?: boolean;
}

function replayCommand(policy: Command, cli: Cli): void {
  policy
    .command("replay")
    .description("re-evaluate recorded decisions with a candidate bundle on their recorded facts (read-only; DATABASE_URL)")
    .option("--policies <dir>", "the candidate bundle (default: COUNTERSIGN_POLICIES, else ./policies)")
    .option("--since <duration>", "decisions of the last duration, such as 24h or 7d (default 24h)")
    .option("--from <time>", "decisions from this RFC 3339 time (with --to, instead of --since)")
    .option("--to <time>", "decisions up to this RFC 3339 time (default now)")
    .option("--vault <vault>", "only this vault's decisions (an id or vaults/{id})")
    .addOption(new Option("--format <format>", "how the report is printed").choices(FORMATS).default("table"))
    .option("--fail-on-change", "exit 1 unless the replay shows that no decision changes")
    .action(
      cli.exits(async (options: ReplayOptions) => {
        const { policyReplay } = await import("../commands/policy-replay.js");
        const { replay } = await import("../replay/replay.js");
        const { locallyOrThroughService, replayThroughService } = await import("../commands/service-reader.js");
        const replayCandidate: ReplayCandidate = (candidate, range, now) =>
          locallyOrThroughService(
            () => withDatabase((db) => replay(db, candidate.bundle, range, { now })),
            (ask) => replayThroughService(ask)(candidate.read, range, now),
          );
        const { failOnChange, policies, ...range } = options;
        return policyReplay({ ...range, policies: policies ?? defaultPolicies(), failOnChange: failOnChange ?? false, now: new Date() }, replayCandidate, cli.out);
      }),
    );
}

function schemaCommand(policy: Command, cli: Cli): void {
  policy
    .command("schema")
    .description("print the JSON Schema of the policy file or of the test files (or, with --write, write both)")
    .addArgument(new Argument("[kind]", "which file's schema").choices(SCHEMA_KINDS).default("policy"))
    .option("--write <dir>", "write both schemas into this directory instead")
    .action(cli.exits(async (kind: SchemaKind, options: { write?: string }) => (await import("../commands/policy-schema.js")).policySchema(kind, options.write, cli.out)));
}
