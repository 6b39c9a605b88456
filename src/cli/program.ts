/**
 * The `countersign` command line (docs/interface.md section 7), parsed by commander. Every command and
 * group answers `--help` (usage on stdout, exit 0) and the root `--version`; a usage error (an
 * unknown command or option, a missing or extra argument, a value outside its choices) is one line
 * on stderr naming it, exit 2, and nothing runs. Past parsing, the exit code is the one the
 * command's action returns: 0 done, 1 it found a failure, 2 its arguments were wrong in a way only
 * it could tell, 3 it refused to read (audit).
 */
import { Command, CommanderError } from "commander";
import { packageVersion } from "../version.js";

export const USAGE_ERROR = 2;

export interface Cli {
  out: (line: string) => void;
  fail: (line: string) => void;
  /** An action whose returned number becomes the process's exit code. */
  exits<A extends unknown[]>(run: (...args: A) => Promise<number>): (...args: A) => Promise<void>;
}

export type CommandGroup = (program: Command, cli: Cli) => void;

/** Parses `argv` (the arguments after the program's name), runs the command, returns its exit code. */
export async function runCommandLine(argv: string[], groups: readonly CommandGroup[], io: Pick<Cli, "out" | "fail">): Promise<number> {
  let code = 0;
  const cli: Cli = {
    ...io,
    exits:
      (run) =>
      async (...args) =>
        void (code = await run(...args)),
  };
  const program = rootCommand(io);
  for (const group of groups) group(program, cli);
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return error.exitCode === 0 ? 0 : USAGE_ERROR;
  }
  return code;
}

/** Subcommands made with `.command()` inherit these settings (commander's copyInheritedSettings). */
function rootCommand(io: Pick<Cli, "out" | "fail">): Command {
  const line = (text: string) => text.replace(/\n$/, "");
  return new Command("countersign")
    .description("policy decisions for a custody platform's co-signer")
    .version(packageVersion(), "-V, --version", "print countersign's version and exit")
    .helpOption("-h, --help", "print this usage and exit")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.out(line(text)),
      writeErr: (text) => io.fail(line(text)),
      outputError: (text, write) => write(`countersign: ${text.replace(/^error: /, "")}`),
    })
    .showHelpAfterError("(add --help for usage)");
}

/** The policy directory a command reads when none is given. */
export const defaultPolicies = (): string => process.env.COUNTERSIGN_POLICIES ?? "./policies";
