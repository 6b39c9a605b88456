/** Every `countersign` command, in the order `countersign --help` lists them. */
import { explainCommand, reviewCommands } from "./inspect-commands.js";
import { policyCommands } from "./policy-commands.js";
import { runCommandLine, type Cli } from "./program.js";
import { serviceCommands } from "./service-commands.js";

export const countersignCommandLine = (argv: string[], io: Pick<Cli, "out" | "fail">): Promise<number> =>
  runCommandLine(argv, [serviceCommands, policyCommands, explainCommand, reviewCommands], io);
