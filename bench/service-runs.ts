/**
 * HTTP figures measured on separate processes: the service from a built checkout (this one, or a
 * baseline commit's in a temporary git worktree) on a fresh database or on PGlite, and the bare
 * express ceiling; the load client is a third process (bench/load-client.ts).
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { exampleEnvFor } from "../test/support/example-bundle.js";
import { processTicks, type TicksReader } from "./cpu-split.js";
import { checkpoint, connectClient, freshDatabase } from "./durable-server.js";
import { onCleanup, startHttpProcess } from "./processes.js";
import { runLoad, type LoadResult } from "./webhook-throughput.js";

const run = promisify(execFile);

export interface ServiceFigure extends LoadResult {
  label: string;
  /** Decision rows written and how many allowed (null where the rows could not be read). */
  rows: number;
  allowed: number | null;
}

/** `npm run build` in a checkout; returns the seconds it took. */
export async function buildCheckout(root: string): Promise<number> {
  const started = performance.now();
  try {
    await run("npm", ["run", "--silent", "build"], { cwd: root, timeout: 300_000 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`npm run build failed in ${root}: ${(e.stdout ?? "") + (e.stderr ?? e.message)}`.slice(0, 2000), { cause: error });
  }
  return (performance.now() - started) / 1000;
}

/** The child's environment: this one without anything that would point the service elsewhere. */
function serviceEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k === "DATABASE_URL" || k.startsWith("COUNTERSIGN_") || k.startsWith("OTEL_")) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

export async function bareExpressCeiling(root: string, seconds: number, connections: number): Promise<LoadResult> {
  const app = await startHttpProcess([path.join(root, "bench/bare-express.mjs")], { env: serviceEnv({}), cwd: root, readyPath: "/healthz", label: "bare express" });
  try {
    return await runLoad(`${app.url}/v1/cosigner/webhook`, { seconds, connections, watched: { "bare express": processTicks(app.pid) } });
  } finally {
    await app.stop();
  }
}

export interface ServiceRun {
  /** A built checkout (dist/ present). */
  root: string;
  /** The durable server's URL, or null for the embedded PGlite. */
  server: string | null;
  /** The durable server's CPU time, where it can be read. */
  serverCpu?: TicksReader | null;
  policies: string;
  seconds: number;
  connections: number;
  wallets: number;
  label: string;
}

/** The service from `root`'s dist/, on a fresh database it migrates itself, under load. */
export async function countersignRun(r: ServiceRun): Promise<ServiceFigure> {
  const store = r.server ? await freshDatabase(r.server, "service", { migrate: false }) : null;
  const dataDir = r.server ? null : mkdtempSync(path.join(tmpdir(), "countersign-bench-pglite-"));
  const forget = onCleanup(async () => {
    await store?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  try {
    const env = serviceEnv({ COUNTERSIGN_POLICIES: r.policies, ...exampleEnvFor(r.policies), ...(store ? { DATABASE_URL: store.url } : { COUNTERSIGN_DATA_DIR: dataDir! }) });
    if (r.server) await checkpoint(r.server);
    const service = await startHttpProcess([path.join(r.root, "dist/src/cli.js"), "serve"], { env, cwd: r.root, readyPath: "/readyz", label: `countersign (${r.label})` });
    let load: LoadResult;
    try {
      const watched = { service: processTicks(service.pid), ...(r.server && r.serverCpu ? { postgres: r.serverCpu } : {}) };
      load = await runLoad(`${service.url}/v1/cosigner/webhook`, { seconds: r.seconds, connections: r.connections, wallets: r.wallets, watched });
    } finally {
      await service.stop();
    }
    const counted = store ? await countDecisions(store.url) : { rows: load.requests, allowed: null };
    return { label: r.label, ...load, ...counted };
  } finally {
    await forget();
  }
}

async function countDecisions(url: string): Promise<{ rows: number; allowed: number }> {
  const client = await connectClient(url);
  try {
    const r = await client.query<{ rows: string; allowed: string }>("select count(*) as rows, count(*) filter (where decision = 'allow') as allowed from decisions");
    return { rows: Number(r.rows[0]!.rows), allowed: Number(r.rows[0]!.allowed) };
  } finally {
    await client.end();
  }
}

export type PreparedBaseline = { ok: true; root: string; commit: string; buildSeconds: number; remove(): Promise<void> } | { ok: false; reason: string };

/** `ref` checked out in a temporary git worktree (this checkout's node_modules linked in) and built. */
export async function prepareBaseline(root: string, ref: string): Promise<PreparedBaseline> {
  let commit: string;
  try {
    commit = (await run("git", ["-C", root, "rev-parse", "--verify", `${ref}^{commit}`])).stdout.trim();
  } catch {
    return { ok: false, reason: `git or the ref ${ref} is not available here` };
  }
  const dir = mkdtempSync(path.join(tmpdir(), "countersign-baseline-"));
  const tree = path.join(dir, "tree");
  const remove = onCleanup(async () => {
    await run("git", ["-C", root, "worktree", "remove", "--force", tree]).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    await run("git", ["-C", root, "worktree", "prune"]).catch(() => undefined);
  });
  try {
    await run("git", ["-C", root, "worktree", "add", "--detach", tree, commit]);
    if (!existsSync(path.join(tree, "node_modules"))) symlinkSync(path.join(root, "node_modules"), path.join(tree, "node_modules"), "dir");
    return { ok: true, root: tree, commit, buildSeconds: await buildCheckout(tree), remove };
  } catch (error) {
    await remove();
    return { ok: false, reason: `could not build ${ref}: ${String(error).split("\n")[0]}` };
  }
}
