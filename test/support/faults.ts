/**
 * Fault-test support: the service started as `countersign serve` in a child process, Postgres
 * paused with SIGSTOP, a bounded co-signer load, and the invariants every fault must keep:
 * every 200 the co-signer received has its committed row with the same answer, one final answer
 * per transaction name, no velocity window group over its limit, and the service answering again.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, expect, vi } from "vitest";
import { randomUUID } from "node:crypto";
import type { Db } from "../../src/database.js";
import { assetTransfer, VAULT } from "./bodies.js";
import { BIN } from "./cli.js";
import { exampleEnvFor } from "./example-bundle.js";
import { CosignerSimulator, type Delivery } from "./cosigner.js";

export const LIMIT = 40;
/** Deny past LIMIT per source wallet and hour; allow internal transfers; every delivery moves 1. */
export const POLICY = `
version: "faults.1"
default: deny
windows:
  - {name: hourly_out, duration: 1h, groupBy: [sourceWallet, asset], measure: amount}
rules:
  - id: hourly-limit
    decision: deny
    reason: At most ${LIMIT} an hour from one wallet
    when: {">": [{"var": "velocity.hourly_out.amountAfter"}, "${LIMIT}"]}
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;
export const WALLETS = [`${VAULT}/wallets/faultA`, `${VAULT}/wallets/faultB`];

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout: string[];
}

// Every service this file started, killed once its tests are done: a start has no time limit of
// its own, so one that never serves is ended here (after the test's timeout), never left behind.
const children = new Set<ChildProcess>();
afterAll(async () => {
  await Promise.all(
    [...children].map(async (child) => {
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGKILL");
        await gone;
      }
    }),
  );
  children.clear();
});

/**
 * Starts `countersign serve` on 127.0.0.1:0 and resolves once it logs its URL, or rejects once it
 * exits before that. No clock decides: a loaded machine makes a start slower, not a failure.
 */
export function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [BIN, "serve"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      COUNTERSIGN_HOST: "127.0.0.1",
      COUNTERSIGN_PORT: "0",
      COUNTERSIGN_LOG_LEVEL: "info",
      ...(env.COUNTERSIGN_POLICIES ? exampleEnvFor(env.COUNTERSIGN_POLICIES) : {}),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  const stdout: string[] = [];
  let stderr = "";
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    let buffered = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        stdout.push(line);
        try {
          const entry = JSON.parse(line) as { msg?: string; url?: string };
          if (entry.msg === "countersign serving" && entry.url) {
            resolve({ url: entry.url, child, exited, stdout });
          }
        } catch {
          // not a log line
        }
      }
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    void exited.then(({ code }) => {
      reject(new Error(`service exited with ${code} before serving: ${stderr.slice(0, 500)}`));
    });
  });
}

/** The postmaster and every process it started (backends, background workers). */
function serverProcesses(dataDir: string): number[] {
  const postmaster = Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  const children = readdirSync("/proc")
    .filter((d) => /^[0-9]+$/.test(d))
    .filter((d) => {
      try {
        // Field 4 of /proc/PID/stat is the parent pid (after the parenthesised command name).
        const stat = readFileSync(`/proc/${d}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

/** SIGSTOPs the whole server (postmaster first, so it starts nothing new); returns the resume. */
export function pausePostgres(dataDir: string): () => void {
  const pids = serverProcesses(dataDir);
  for (const pid of pids) process.kill(pid, "SIGSTOP");
  return () => {
    for (const pid of [...pids].reverse()) {
      try {
        process.kill(pid, "SIGCONT");
      } catch {
        // exited meanwhile
      }
    }
  };
}

export interface Answer {
  name: string;
  url: string;
  startedAt: number;
  endedAt: number;
  delivery: Delivery;
}

export interface Load {
  answers: Answer[];
  /** Each name's body, for redeliveries. */
  bodies: ReadonlyMap<string, object>;
  /** Resolves once `maxDeliveries` were made. */
  done: Promise<Answer[]>;
  /** Stops starting deliveries and waits for the ones in flight. */
  stop(): Promise<Answer[]>;
}

/**
 * `concurrency` co-signers delivering fresh transactions of 1 from the fault wallets, in turn, to
 * `target()` (which may change mid-load), plus a redelivery of an earlier name every `repeatEvery`
 * deliveries; stops by itself after `maxDeliveries`.
 */
/** A co-signer that finds the service unreachable waits before asking again, as the real one does: part of the scenario, not a wait for it. */
const coSignerBackoff = () => new Promise((resolve) => setTimeout(resolve, 250));

export function startLoad(
  target: () => string,
  options: { concurrency: number; maxDeliveries: number; repeatEvery?: number; timeoutMs?: number; wallets?: readonly string[] },
): Load {
  const wallets = options.wallets ?? WALLETS;
  const answers: Answer[] = [];
  let started = 0;
  let stopping = false;
  const worker = async () => {
    while (!stopping && started < options.maxDeliveries) {
      const n = started++;
      const earlier = options.repeatEvery && n % options.repeatEvery === 0 ? answers.at(-1) : undefined;
      const body = earlier ? (JSON.parse(JSON.stringify(bodies.get(earlier.name))) as object) : freshBody(n);
      const name = (body as { name: string }).name;
      const url = target();
      const cosigner = new CosignerSimulator({ webhookUrl: `${url}/v1/cosigner/webhook`, timeoutMs: options.timeoutMs ?? 10_000 });
      const startedAt = performance.now();
      const delivery = await cosigner.deliver(body);
      answers.push({ name, url, startedAt, endedAt: performance.now(), delivery });
      if (delivery.status === null) await coSignerBackoff();
    }
  };
  const bodies = new Map<string, object>();
  const freshBody = (n: number) => {
    const body = assetTransfer({ name: `${VAULT}/transactions/f${randomUUID().replaceAll("-", "")}`, amount: "1", source: wallets[n % wallets.length]! });
    bodies.set(body.name, body);
    return body;
  };
  const running = Promise.all(Array.from({ length: options.concurrency }, worker));
  return {
    answers,
    bodies,
    done: running.then(() => answers),
    stop: async () => {
      stopping = true;
      await running;
      return answers;
    },
  };
}

export function countByStatus(answers: readonly Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) {
    const key = a.delivery.status === null ? "unreachable" : String(a.delivery.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

export interface InvariantReport {
  answered200: number;
  names: number;
  groups: Record<string, string>;
  problems: string[];
}

/**
 * Checks, on the database: each 200 has its row (same decision id, name and answer); all 200s of
 * one name give the same answer, which is that name's final decision; no window group's live
 * charges exceed LIMIT; each allowed name is charged once.
 */
export async function checkInvariants(db: Db, answers: readonly Answer[]): Promise<InvariantReport> {
  const problems: string[] = [];
  const ok = answers.filter((a) => a.delivery.status === 200);
  const ids = ok.map((a) => (a.delivery.body as { decisionId: string }).decisionId);
  const rows = ids.length === 0 ? [] : await db.selectFrom("decisions").select(["id", "transaction_name", "sign_transaction", "http_status"]).where("id", "in", ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const answerByName = new Map<string, boolean>();
  for (const a of ok) {
    const body = a.delivery.body as { decisionId: string; signTransaction: boolean };
    const row = byId.get(body.decisionId);
    if (!row) problems.push(`200 for ${a.name} (decision ${body.decisionId}) has no committed row`);
    else if (row.transaction_name !== a.name || row.sign_transaction !== body.signTransaction || row.http_status !== 200) {
      problems.push(`row ${row.id} differs from the answer given for ${a.name}`);
    }
    const earlier = answerByName.get(a.name);
    if (earlier !== undefined && earlier !== body.signTransaction) problems.push(`${a.name} was answered both ways`);
    answerByName.set(a.name, body.signTransaction);
  }
  const names = [...answerByName.keys()];
  if (names.length > 0) {
    const finals = await db
      .selectFrom("decisions")
      .select(["transaction_name", "sign_transaction"])
      .where("transaction_name", "in", names)
      .where("replayed", "=", false)
      .where("decision", "in", ["allow", "deny"])
      .execute();
    const finalCount = new Map<string, number>();
    for (const f of finals) {
      finalCount.set(f.transaction_name, (finalCount.get(f.transaction_name) ?? 0) + 1);
      if (answerByName.get(f.transaction_name) !== f.sign_transaction) problems.push(`final decision of ${f.transaction_name} differs from the answers given`);
    }
    for (const name of names) if (finalCount.get(name) !== 1) problems.push(`${name} has ${finalCount.get(name) ?? 0} final decisions`);
  }
  const groups = await sql<{ group_key: string; amount: string }>`
    select g.group_key, sum(c.amount)::text as amount from velocity_charges c join velocity_groups g using (group_hash)
    where c.voided_at is null group by g.group_key`.execute(db);
  for (const g of groups.rows) if (Number(g.amount) > LIMIT) problems.push(`window group ${g.group_key} holds ${g.amount} > ${LIMIT}`);
  const doubly = await sql<{ transaction_name: string }>`
    select transaction_name from velocity_charges where voided_at is null group by transaction_name, transfer_index having count(*) > 1`.execute(db);
  for (const d of doubly.rows) problems.push(`${d.transaction_name} charged more than once`);
  return {
    answered200: ok.length,
    names: names.length,
    // Keyed by the wallet the group is for (the keys are long JSON).
    groups: Object.fromEntries(groups.rows.map((g) => [/wallets\/([A-Za-z0-9_-]+)/.exec(g.group_key)?.[1] ?? g.group_key, g.amount])),
    problems,
  };
}

/** Delivers fresh transactions until one gets a 200: the service decides again. */
export async function untilAnswering(url: () => string): Promise<void> {
  await vi.waitFor(
    async () => {
      const cosigner = new CosignerSimulator({ webhookUrl: `${url()}/v1/cosigner/webhook`, timeoutMs: 5_000 });
      const delivery = await cosigner.deliver(assetTransfer({ amount: "0.001", source: `${VAULT}/wallets/probe` }));
      expect(delivery.status, JSON.stringify(delivery.body ?? null).slice(0, 200)).toBe(200);
    },
    { timeout: 30_000, interval: 200 },
  );
}

/** Once `load` has `count` answers, whatever they are. */
export const untilAnswered = (load: Pick<Load, "answers">, count: number): Promise<void> =>
  vi.waitFor(() => expect(load.answers.length).toBeGreaterThanOrEqual(count), { timeout: 60_000, interval: 20 });
