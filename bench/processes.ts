/**
 * The processes a throughput run starts (services, the bare express server, the load client) and
 * the cleanups it owes (clusters, databases, worktrees): every one is undone when the run ends,
 * fails, or is interrupted (Ctrl-C, SIGTERM).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "../test/support/local-cluster.js";

const cleanups: Array<() => Promise<void>> = [];

/** Registers an undo step; returns a function that runs it now (once) and forgets it. */
export function onCleanup(step: () => Promise<void>): () => Promise<void> {
  let done = false;
  const once = async () => {
    if (done) return;
    done = true;
    const i = cleanups.indexOf(once);
    if (i >= 0) cleanups.splice(i, 1);
    await step();
  };
  cleanups.push(once);
  return once;
}

let cleaning: Promise<void> | null = null;

/**
 * Runs every pending undo step, newest first; failures are reported, not thrown. A second caller
 * (the signal handler while the run unwinds) waits for the same pass instead of exiting mid-way.
 */
export function cleanUpAll(): Promise<void> {
  cleaning ??= (async () => {
    while (cleanups.length > 0) {
      const step = cleanups[cleanups.length - 1]!;
      await step().catch((error: unknown) => console.error(`cleanup failed: ${String(error)}`));
    }
  })().finally(() => {
    cleaning = null;
  });
  return cleaning;
}

/**
 * Ctrl-C reaches this process twice (from the terminal and again from tsx, which forwards it):
 * every signal after the first is ignored until the cleanup has run (its steps are time-bounded).
 */
export function cleanUpOnSignals(): void {
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      console.error(`\n${signal}: stopping what the bench started`);
      void cleanUpAll().finally(() => process.exit(130));
    });
  }
}

export interface HttpProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts `node <args>` listening on a free loopback port (given as PORT and COUNTERSIGN_PORT) and
 * waits until `readyPath` answers 200. Its output is kept to explain a failure.
 */
export async function startHttpProcess(args: string[], options: { env: NodeJS.ProcessEnv; cwd?: string; readyPath: string; label: string }): Promise<HttpProcess> {
  const port = await freePort();
  const env = { ...options.env, PORT: String(port), COUNTERSIGN_PORT: String(port), COUNTERSIGN_HOST: "127.0.0.1" };
  const child = spawn(process.execPath, args, { env, cwd: options.cwd, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const stop = onCleanup(() => stopChild(child));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}${options.readyPath}`, child, 60_000);
  } catch (error) {
    await stop();
    throw new Error(`${options.label} did not start: ${String(error)}\n${stderr}`, { cause: error });
  }
  return { url, pid: child.pid!, stop };
}

async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no 200 from ${url} within ${timeoutMs / 1000} s`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}
