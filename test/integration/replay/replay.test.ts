/**
 * `countersign policy replay` over 1,000 decisions recorded by the real decision path: a candidate
 * that lowers a limit changes exactly the decisions between the two limits; a candidate adding a
 * window is replayed from the charge ledger as of each decision's time (or reported not
 * replayable when the ledger never grouped charges that way); nothing is written.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Facts } from "../../../src/core/facts/types.js";
import { loadBundle } from "../../../src/policy/load.js";
import type { PolicyBundle } from "../../../src/core/policy/types.js";
import { replay } from "../../../src/replay/replay.js";
import type { ReplayReport } from "../../../src/replay/summary.js";
import { runCli } from "../../support/cli.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { assetTransfer, ETH, VAULT } from "../../support/bodies.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService, writeBundle } from "../../support/service.js";

const rulesWithLimit = (limit: string, extra = "") => `
rules:
  - id: single-limit
    decision: deny
    reason: A single transfer may not exceed ${limit}
    when: {">": [{"var": "transfer.amount"}, "${limit}"]}
${extra}
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;

const LIVE = `
version: "live.1"
default: deny
windows:
  - {name: daily_out, duration: 24h, groupBy: [sourceWallet, asset], measure: amount}
${rulesWithLimit("1000")}`;

const LOWER_LIMIT = LIVE.replace('"live.1"', '"lower.1"').replaceAll("1000", "500");

const HOURLY_CAP = "2500";
const ADDS_WINDOW = `
version: "hourly.1"
default: deny
windows:
  - {name: daily_out, duration: 24h, groupBy: [sourceWallet, asset], measure: amount}
  - {name: hourly_out, duration: 1h, groupBy: [asset, sourceWallet], measure: amount}
${rulesWithLimit(
  "1000",
  `  - id: hourly-limit
    decision: deny
    when: {">": [{"var": "velocity.hourly_out.amountAfter"}, "${HOURLY_CAP}"]}`,
)}`;

/** The live bundle with daily_out grouped per vault instead of per wallet: no group of it was ever charged. */
const REGROUPED = LIVE.replace('"live.1"', '"regrouped.1"').replace("groupBy: [sourceWallet, asset]", "groupBy: [vault, asset]");

const ADDS_UNCHARGED_WINDOW = ADDS_WINDOW.replace('"hourly.1"', '"dest.1"').replace("groupBy: [asset, sourceWallet]", "groupBy: [destination, asset]");

const COUNT = 1000;
const WALLETS = 10;
const BASE = Date.parse("2026-11-20T00:00:00Z");

async function bundleOf(policy: string): Promise<PolicyBundle> {
  const loaded = await loadBundle(writeBundle(policy));
  if (!loaded.ok) throw loaded.error;
  return loaded.value;
}

interface Recorded {
  id: string;
  name: string;
  at: number;
  wallet: string;
  amount: number;
  decision: string;
}

describe("policy replay on 1,000 recorded decisions", () => {
  let tdb: TestDatabase;
  let recorded: Recorded[];
  const range = { from: new Date(BASE - 3600_000), to: new Date(BASE + 7 * 86400_000) };

  beforeAll(async () => {
    tdb = await createTestDatabase();
    let calls = 0;
    // Each decision a minute after the previous one: 1,000 minutes, several hours of traffic.
    const clock = () => new Date(BASE + calls++ * 60_000);
    const service = await startTestService({ database: tdb.handle, policiesDir: writeBundle(LIVE), clock });
    try {
      const cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
      const bodies = Array.from({ length: COUNT }, (_, i) => assetTransfer({ asset: ETH, amount: String(((i * 7) % 1200) + 1), source: `${VAULT}/wallets/w${i % WALLETS}` }));
      for (let i = 0; i < bodies.length; i += 20) {
        const batch = await Promise.all(bodies.slice(i, i + 20).map((b) => cosigner.deliver(b)));
        expect(batch.every((d) => d.status === 200)).toBe(true);
      }
    } finally {
      await service.stop();
    }
    const rows = await tdb.handle.db.selectFrom("decisions").select(["id", "transaction_name", "decided_at", "decision", "facts"]).execute();
    recorded = rows.map((r) => {
      const t = (r.facts as Facts[])[0]!.transfer!;
      return { id: r.id, name: r.transaction_name, at: new Date(r.decided_at).getTime(), wallet: t.source.wallet!, amount: Number(t.amount), decision: r.decision };
    });
    expect(recorded).toHaveLength(COUNT);
  }, 240_000);
  afterAll(async () => {
    await tdb?.drop();
  });

  /** Everything replay could have written to. */
  const footprint = async () =>
    (
      await sql<{ n: string }>`
      select (select count(*) from decisions)::text || '/' || (select coalesce(max(seq), 0) from decisions)::text || '/' ||
             (select count(*) from velocity_charges)::text || '/' || (select count(*) from velocity_buckets)::text || '/' ||
             (select count(*) from velocity_groups)::text || '/' || (select coalesce(sum(count), 0) from velocity_buckets)::text as n`.execute(tdb.handle.db)
    ).rows[0]!.n;

  it("a candidate that lowers a limit changes exactly the decisions between the two limits, writes nothing, and --fail-on-change exits 1", async () => {
    const between = recorded.filter((r) => r.amount > 500 && r.amount <= 1000);
    expect(between.length).toBeGreaterThan(100);
    expect(recorded.filter((r) => r.amount > 1000).length).toBeGreaterThan(50);
    const before = await footprint();

    const result = await runCli(
      ["policy", "replay", "--policies", writeBundle(LOWER_LIMIT), "--from", range.from.toISOString(), "--to", range.to.toISOString(), "--format", "json", "--fail-on-change"],
      { env: { DATABASE_URL: tdb.url }, timeoutMs: 120_000 },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as ReplayReport;
    expect(report).toMatchObject({
      replayed: COUNT,
      changed: between.length,
      unchanged: COUNT - between.length,
      notReplayable: 0,
      transitions: { "allow → deny": between.length },
      byRule: { "single-limit": between.length },
      changesNotListed: 0,
    });
    expect(report.changes.map((c) => c.transactionName).sort()).toEqual(between.map((r) => r.name).sort());
    const first = report.changes.find((c) => c.transactionName === between[0]!.name)!;
    expect(first).toMatchObject({
      vault: VAULT,
      amounts: [`${between[0]!.amount} ${ETH}`],
      from: { decision: "allow", rules: ["internal"] },
      to: { decision: "deny", rules: ["single-limit"] },
    });
    expect(await footprint()).toBe(before);

    const same = await runCli(["policy", "replay", "--policies", writeBundle(LIVE), "--since", "30d", "--fail-on-change"], { env: { DATABASE_URL: tdb.url }, timeoutMs: 120_000 });
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/changed +0$/m);
    expect(same.stdout).toMatch(/replayed +1000$/m);
  }, 240_000);

  it("--format markdown is a pull-request comment with the counts and the changed transactions", async () => {
    // Pages of 7 rows: the keyset cursor must neither skip nor repeat a row.
    const report = await replay(tdb.handle.db, await bundleOf(LOWER_LIMIT), { ...range, vault: VAULT }, { listLimit: 5, pageSize: 7 });
    expect(report.replayed).toBe(COUNT);
    const { formatReport } = await import("../../../src/replay/format.js");
    const text = formatReport(report, "markdown");
    const between = recorded.filter((r) => r.amount > 500 && r.amount <= 1000).length;
    expect(text).toContain(`### Policy replay: lower.1 — **${between} recorded decisions would change**`);
    expect(text).toContain(`| ${COUNT} | ${COUNT - between} | ${between} | 0 |`);
    expect(text).toContain(`| allow → deny | ${between} |`);
    expect(text).toContain(`| \`single-limit\` | ${between} |`);
    expect(text).toContain(`… and ${between - 5} more`);
    expect(report.changes).toHaveLength(5);
  });

  it("a candidate adding a window is replayed from the charge ledger as of each decision's time", async () => {
    const before = await footprint();
    const report = await replay(tdb.handle.db, await bundleOf(ADDS_WINDOW), range);
    // The reference: approved amounts of the same wallet in the hour before each decision, plus its own.
    const expected = recorded.filter((r) => {
      if (r.decision !== "allow") return false;
      const window = recorded.filter((o) => o.wallet === r.wallet && o.decision === "allow" && o.id !== r.id && o.at > r.at - 3600_000 && o.at <= r.at);
      return window.reduce((sum, o) => sum + o.amount, r.amount) > Number(HOURLY_CAP);
    });
    expect(expected.length).toBeGreaterThan(0);
    expect(report).toMatchObject({ replayed: COUNT, notReplayable: 0, changed: expected.length, byRule: { "hourly-limit": expected.length } });
    expect(report.changes.map((c) => c.transactionName).sort()).toEqual(expected.map((r) => r.name).sort());
    expect(await footprint()).toBe(before);
  });

  it("a window grouped in a way the ledger never charged is reported as not replayable, never evaluated without it", async () => {
    const report = await replay(tdb.handle.db, await bundleOf(ADDS_UNCHARGED_WINDOW), range);
    const allows = recorded.filter((r) => r.decision === "allow");
    const lastAllow = new Date(Math.max(...allows.map((r) => r.at)));
    expect(report.replayed).toBe(0);
    expect(report.notReplayable).toBe(COUNT);
    expect(report.notReplayableReasons).toEqual({ "window hourly_out: the charge ledger has no history grouped by [asset, destination]": COUNT });
    expect(report.notReplayableDecisions[0]!.reason).toContain(`before ${lastAllow.toISOString()}`);
    expect(report.unjudged).toBe(COUNT);
  });

  // A group is its dimensions and their values, and only the bundle in force's groups are charged:
  // merged, a changed groupBy reads none of the day's spending, and each vault may send its whole
  // daily limit again. Replay could only call those decisions not replayable; it now says so.
  it("a window whose groupBy changed is reported as starting without the spending already done, until its reach is past the last uncharged transfer", async () => {
    const lastAllow = Math.max(...recorded.filter((r) => r.decision === "allow").map((r) => r.at));
    const soon = await replay(tdb.handle.db, await bundleOf(REGROUPED), range, { now: new Date(lastAllow + 3600_000) });
    expect(soon.windowsStartingShort).toEqual([
      { window: "daily_out", groupBy: ["asset", "vault"], unchargedUntil: new Date(lastAllow).toISOString(), completeFrom: new Date(lastAllow + 86_400_000).toISOString() },
    ]);
    const { formatReport } = await import("../../../src/replay/format.js");
    expect(formatReport(soon, "markdown")).toContain(
      "**Velocity windows that would start from zero:**\n\n- window daily_out (grouped by [asset, vault]) starts without the spending already done",
    );
    expect(formatReport(soon, "table")).toMatch(
      /^WARNING: window daily_out \(grouped by \[asset, vault\]\) starts without the spending already done: .* each group would allow its whole limit again until /m,
    );

    // The hourly window added beside: its reach is an hour, past the last uncharged transfer after one.
    const added = await replay(tdb.handle.db, await bundleOf(ADDS_UNCHARGED_WINDOW), range, { now: new Date(lastAllow + 30 * 60_000) });
    expect(added.windowsStartingShort.map((w) => w.window)).toEqual(["hourly_out"]);
    const later = await replay(tdb.handle.db, await bundleOf(ADDS_UNCHARGED_WINDOW), range, { now: new Date(lastAllow + 2 * 3600_000) });
    expect(later.windowsStartingShort).toEqual([]);
    // Grouped as a window in force already is (renamed, or another duration): its history is there.
    const same = await replay(tdb.handle.db, await bundleOf(ADDS_WINDOW), range, { now: new Date(lastAllow + 60_000) });
    expect(same.windowsStartingShort).toEqual([]);
  });

  it("--fail-on-change fails when a window would start without the spending already done, even when every replayed decision is unchanged", async () => {
    const { replayVerdict } = await import("../../../src/replay/summary.js");
    const lastAllow = Math.max(...recorded.filter((r) => r.decision === "allow").map((r) => r.at));
    const unchanged = await replay(tdb.handle.db, await bundleOf(LIVE), range, { now: new Date(lastAllow + 60_000) });
    expect(replayVerdict(unchanged)).toEqual({ changesNothing: true, text: "no recorded decision changes" });
    const short = (await replay(tdb.handle.db, await bundleOf(REGROUPED), range, { now: new Date(lastAllow + 60_000) })).windowsStartingShort;
    expect(replayVerdict({ ...unchanged, windowsStartingShort: short })).toEqual({
      changesNothing: false,
      text: "no recorded decision changes, but 1 window (daily_out) would start without the spending already done",
    });
  });

  it("--fail-on-change passes only when the replay shows no change: not when nothing could be replayed, nor when nothing was in range", async () => {
    const run = (policy: string, ...extra: string[]) =>
      runCli(["policy", "replay", "--policies", writeBundle(policy), "--since", "30d", "--fail-on-change", ...extra], { env: { DATABASE_URL: tdb.url }, timeoutMs: 120_000 });
    const unjudged = await run(ADDS_UNCHARGED_WINDOW);
    expect(unjudged.code).toBe(1);
    expect(unjudged.stdout).toMatch(/: 1000 decisions could not be replayed: the candidate is not shown to change nothing$/m);
    const typo = await run(LIVE, "--vault", "nosuchvault");
    expect(typo.code).toBe(1);
    expect(typo.stdout).toMatch(/: nothing replayed: no recorded decision in the range was evaluated$/m);
    const same = await run(LIVE, "--format", "markdown");
    expect(same.code).toBe(0);
    expect(same.stdout).toContain("— no recorded decision changes");
  }, 240_000);
});
