/**
 * The `countersign` command (docs/interface.md section 7): the commands are declared in src/cli/, parsed by
 * commander (src/cli/program.ts says what --help, --version and a usage error do).
 */
import { countersignCommandLine } from "./cli/commands.js";
import { shutdownTelemetry } from "./telemetry/lifecycle.js";

// A reader that stops early (`countersign explain FILE | head`) closes the pipe: what is left unread
// is not an error of the command's, so it ends quietly instead of crashing on EPIPE.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(process.exitCode ?? 0);
});

const out = (line: string) => process.stdout.write(line + "\n");
const fail = (line: string) => process.stderr.write(line + "\n");

countersignCommandLine(process.argv.slice(2), { out, fail })
  .then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      fail(`countersign: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  )
  // With OpenTelemetry on, the last spans and metrics go out (for `serve`, after draining).
  .finally(() => shutdownTelemetry());
