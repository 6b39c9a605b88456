/** `countersign serve` started from an installed copy (not this checkout), as an operator starts it. */
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { tmpdir } from "node:os";

export interface InstalledService {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
  /** SIGTERM, then its exit code once it has drained. */
  stop: () => Promise<number | null>;
}

/** Resolves with the service once its "countersign serving" log line names its URL. */
export function startInstalledService(bin: string, env: Record<string, string>, options: SpawnOptions = {}): Promise<InstalledService> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "serve"], {
      env: { PATH: process.env.PATH ?? "", HOME: tmpdir(), ...env },
      stdio: ["ignore", "pipe", "pipe"],
      ...options,
    });
    let output = "";
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
    const stop = async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const serving = output.split("\n").find((line) => line.includes('"countersign serving"'));
      if (serving) resolve({ url: (JSON.parse(serving) as { url: string }).url, child, output: () => output, stop });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`countersign exited with ${code}:\n${output}`)));
  });
}
