/**
 * A throwaway PostgreSQL cluster started from the local server binaries, for machines without
 * TEST_DATABASE_URL or a Docker engine. initdb and postgres refuse to run as root, so as root the
 * cluster runs as the `postgres` user.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

export interface LocalCluster {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export function findPostgresBinaries(): string | undefined {
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

function asPostgresUser(bin: string, args: string[]): [string, string[]] {
  const isRoot = process.getuid?.() === 0;
  return isRoot ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
}

export async function startLocalCluster(binDir: string): Promise<LocalCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), "countersign-pg-"));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
  }
  const dataDir = path.join(dir, "data");
  const [initCmd, initArgs] = asPostgresUser(path.join(binDir, "initdb"), [
    "-D", dataDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C",
  ]);
  execFileSync(initCmd, initArgs, { stdio: "ignore" });
  const port = await freePort();
  const [cmd, args] = asPostgresUser(path.join(binDir, "postgres"), [
    "-D", dataDir, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1",
    "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=300",
  ]);
  const child: ChildProcess = spawn(cmd, args, { stdio: "ignore", detached: false });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await waitUntilAccepting(url, child);
  return {
    url,
    port,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        // Signal the postmaster itself: as root the child is `runuser`, which does not pass
        // SIGINT on. SIGINT is postgres's "fast" shutdown.
        signalPostmaster(dataDir, "SIGINT") || child.kill("SIGINT");
        const timer = setTimeout(() => signalPostmaster(dataDir, "SIGQUIT") || child.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
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
