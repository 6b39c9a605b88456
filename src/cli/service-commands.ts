/** `countersign serve`, `migrate`, `addressbook sync`, `velocity void|prune`, `audit verify|checkpoint`. */
import type { Command } from "commander";
import type { VerifyOptions } from "../audit/verify.js";
import { loadConfig } from "../config.js";
import { migrateToLatest } from "../db/migrate.js";
import { serve } from "../main.js";
import type { Cli } from "./program.js";
import { withDatabase } from "../commands/with-database.js";

export function serviceCommands(program: Command, cli: Cli): void {
  program
    .command("serve")
    .description("start the service (applies pending migrations first unless COUNTERSIGN_MIGRATE=false)")
    .action(cli.exits(() => serve()));
  program
    .command("migrate")
    .description("apply pending migrations and exit (as COUNTERSIGN_MIGRATE_DATABASE_URL when set, else DATABASE_URL)")
    .action(cli.exits(() => migrate(cli)));
  program
    .command("addressbook")
    .description("the configured vaults' address books")
    .command("sync")
    .description("fetch the configured vaults' address books once and exit")
    .action(cli.exits(async () => (await import("../commands/addressbook-sync.js")).addressBookSync(loadConfig(), cli.out)));
  velocityCommands(program, cli);
  auditCommands(program, cli);
}

function migrate(cli: Cli): Promise<number> {
  return withDatabase(
    async (db) => {
      const applied = await migrateToLatest(db);
      cli.out(applied.length === 0 ? "database is up to date" : `applied: ${applied.join(", ")}`);
      return 0;
    },
    loadConfig().migrateDatabaseUrl,
    true,
    true,
  );
}

function velocityCommands(program: Command, cli: Cli): void {
  const velocity = program.command("velocity").description("the velocity ledger: void a transaction's charges, prune expired rows");
  velocity
    .command("void")
    .description("void the velocity charges of a transaction that did not move money, recorded in the audit trail (velocity_voids)")
    .argument("<name>", "the transaction: vaults/{vault_id}/transactions/{transaction_id}")
    .option("--reason <text>", "why the transaction moved no money (required, 1 to 2000 characters)")
    .option("--by <operator>", "who voids it (default: the OS user running the command)")
    .action(
      cli.exits(async (name: string, options: { reason?: string; by?: string }) =>
        (await import("../commands/velocity-void.js")).velocityVoid({ name, ...options }, withDatabase, cli.out),
      ),
    );
  velocity
    .command("prune")
    .description("delete expired velocity buckets and charges now (the service also does it hourly)")
    .action(cli.exits(async () => (await import("../commands/velocity-prune.js")).velocityPrune(loadConfig(), withDatabase, cli.out)));
}

function auditCommands(program: Command, cli: Cli): void {
  const audit = program.command("audit").description("the audit trail's hash chain");
  audit
    .command("verify")
    .description("recompute the audit hash chain; exit 1 on any break, 3 when it refuses to read")
    .option("--schema <schema>", "the schema holding the audit tables (default: the connection's)")
    .option("--checkpoint <position:hash>", "an anchor printed by `audit checkpoint`: the chain must pass through it")
    .option("--from <time>", "verify from this time, rows before it archived (needs --checkpoint, taken before archiving)")
    .action(
      cli.exits(async (options: { schema?: string; checkpoint?: string; from?: string }) => {
        const { verifyOutcome } = await import("../audit/verify-outcome.js");
        const { locallyOrThroughService, verifyThroughService } = await import("../commands/service-reader.js");
        const verify = (o: VerifyOptions) =>
          locallyOrThroughService(
            () => withDatabase((db) => verifyOutcome(db, o)),
            (ask) => verifyThroughService(ask)(o),
          );
        return (await import("../commands/audit.js")).auditVerify(options, verify, cli.out);
      }),
    );
  audit
    .command("checkpoint")
    .description("print the latest sealed position and hash, for anchoring elsewhere")
    .option("--json", "print it as JSON")
    .action(cli.exits(async (options: { json?: boolean }) => (await import("../commands/audit.js")).auditCheckpoint({ json: options.json ?? false }, withDatabase, cli.out)));
}
