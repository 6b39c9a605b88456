import { describe, expect, it } from "vitest";
import type { CapturedStatement } from "../../../bench/capture.js";
import { parsePgbenchOutput } from "../../../bench/pgbench.js";
import { buildReplayScript, literal, renderPgbenchScript, sharedTransactionScript, type ReplayInput } from "../../../bench/replay-script.js";

const NAME = "0123456789abcdef0123456789abcdef";
const UUID = "3008b231-9da2-4692-a539-dd0b9307b175";
const WALLET_HASH = "bb8cc73c9159e14d748b3550fd647da360da40bf6f4b05b542879b2887f7447b";
const DIGEST = "d84c3cb5653d6003a1df87ee778b94e4a4a478db98afe2185346d08e48b3fa33";
const LOCK_ID = "-4932348428926983859";

/** Statements without a round trip each go in their own. */
function input(statements: Array<Omit<CapturedStatement, "roundTrip"> & { roundTrip?: number }>, parameterTypes: string[][]): ReplayInput {
  return {
    statements: statements.map((s, i) => ({ ...s, roundTrip: s.roundTrip ?? i })),
    parameterTypes,
    nameToken: NAME,
    walletToken: "hot7391",
    // B: same wallet (its hash and lock id), another name and decision id; C: only the digest.
    sameWallet: `${WALLET_HASH} ${LOCK_ID} ${DIGEST} vaults/bench/transactions/ffffffffffffffffffffffffffffffff`,
    otherWallet: `${DIGEST}`,
    wallets: 10_000,
  };
}

const extended = (text: string, values: Array<string | null>, roundTrip?: number) => ({ text, values, extended: true, ...(roundTrip === undefined ? {} : { roundTrip }) });
const simple = (text: string, roundTrip?: number) => ({ text, values: [] as string[], extended: false, ...(roundTrip === undefined ? {} : { roundTrip }) });

describe("the SQL ceiling's script from captured statements", () => {
  it("turns the name, wallet, decision id and wallet-derived values into per-transaction expressions and keeps constants", () => {
    const script = buildReplayScript(
      input(
        [
          simple("begin"),
          extended("select pg_advisory_xact_lock(hashtextextended($1, 0))", [`decision:vaults/bench/transactions/${NAME}`]),
          extended("select pg_advisory_xact_lock(id) from unnest($1::int8[]) as id", [`{"${LOCK_ID}"}`]),
          extended("insert into decisions (id, transaction_name, policy_digest, facts, group_hash) values ($1, $2, $3, $4, $5)", [
            UUID,
            `vaults/bench/transactions/${NAME}`,
            DIGEST,
            `{"source":"vaults/bench/wallets/hot7391","other":"vaults/bench/wallets/hot73910"}`,
            WALLET_HASH,
          ]),
          simple("commit"),
        ],
        [[], ["text"], ["bigint[]"], ["uuid", "text", "text", "jsonb", "text"], []],
      ),
    );
    expect(script.mode).toBe("prepared");
    expect(script.commands).toHaveLength(5);
    const [, nameLock, groupLock, insert] = script.commands;
    expect(nameLock).toBe("select pg_advisory_xact_lock(hashtextextended(concat(('decision' || chr(58) || 'vaults/bench/transactions/'), (:cs_n)::int8)::text, 0))");
    expect(groupLock).toBe(`select pg_advisory_xact_lock(id) from unnest(concat('{"', (:cs_a1)::int8, '"}')::bigint[]::int8[]) as id`);
    expect(insert).not.toContain(UUID);
    expect(insert).toContain("concat((:cs_a2_0)::int8, '-', (:cs_a2_1)::int8, '-', ");
    expect(insert).toContain(`concat('${DIGEST}')::text`); // a constant too is read at each execution
    expect(insert).not.toContain(WALLET_HASH);
    // hot7391 is the wallet; hot73910 is another wallet's name and stays as captured
    expect(insert).toContain(
      `concat(('{"source"' || chr(58) || '"vaults/bench/wallets/hot'), (:cs_w)::int8, ('","other"' || chr(58) || '"vaults/bench/wallets/hot73910"}'))::jsonb`,
    );
    const byName = new Map(script.variables.map((v) => [v.name, v]));
    expect(byName.get("cs_w")).toEqual({ name: "cs_w", kind: "random", min: 0n, max: 9999n });
    expect(byName.get("cs_a1")).toMatchObject({ kind: "hash", of: "cs_w" }); // the lock id follows the wallet
    expect(byName.get("cs_a2_0")).toMatchObject({ kind: "hash", of: "cs_n", digits: 8 }); // the decision id follows the decision
    expect(byName.get("cs_a3_0")).toMatchObject({ kind: "hash", of: "cs_w", digits: 18 }); // the group hash follows the wallet
    const rendered = renderPgbenchScript(script);
    expect(rendered).toContain("\\set cs_a3_3 1000000000 + abs(mod(hash(:cs_w, 33), 9000000000))\n");
    expect(rendered).toContain("\\set cs_n random(1000000000000000000, 9223372036854775806)\n");
  });

  it("templates values embedded as literals in a multi-statement simple query inside their quotes, and runs it in simple mode", () => {
    const script = buildReplayScript(
      input(
        [
          simple(
            `begin; select pg_advisory_xact_lock(hashtextextended('decision:vaults/bench/transactions/${NAME}', 0)); select decide('${UUID}'::uuid,  E'{"k":"a\\\\b","w":"hot7391"}', 'it''s')`,
          ),
          simple("commit"),
        ],
        [[], []],
      ),
    );
    expect(script.mode).toBe("simple");
    expect(script.commands[0]).toBe(
      `begin\\; select pg_advisory_xact_lock(hashtextextended('decision:vaults/bench/transactions/:cs_n', 0))\\; select decide(':cs_a1_0-:cs_a1_1-:cs_a1_2-:cs_a1_3-:cs_a1_4'::uuid,  E'{"k":"a\\\\b","w":"hot:cs_w"}', 'it''s')`,
    );
  });

  it("leaves no `:word` that is not one of its variables (pgbench's prepared-mode pitfall)", () => {
    const script = buildReplayScript(
      input([extended("select $1::jsonb, 'decision:' || $2", [`{"at":"10:41:45","name":"vaults/bench/transactions/${NAME}"}`, "x"])], [["jsonb", "text"]]),
    );
    const rendered = renderPgbenchScript(script);
    const words = [...rendered.matchAll(/(?<!:):([A-Za-z0-9_]+)/g)].map((m) => m[1]);
    expect(words).toContain("cs_n");
    const defined = new Set(script.variables.map((v) => v.name));
    expect(words.filter((w) => !defined.has(w!))).toEqual([]);
  });

  it("replaces $1 and $10 each by its own value", () => {
    const values = Array.from({ length: 10 }, (_, i) => `v${i + 1}`);
    const script = buildReplayScript(input([extended("select $1, $10", values)], [Array(10).fill("text")]));
    expect(script.commands[0]).toBe("select concat('v1')::text, concat('v10')::text");
  });

  it("keeps a multi-statement simple query one round trip, joined with \\;, and runs it in simple mode", () => {
    const script = buildReplayScript(input([simple("begin; select 'a;b'; select 1;"), extended("select $1", [null]), simple("commit")], [[], ["text"], []]));
    expect(script.commands).toEqual(["begin\\; select 'a;b'\\; select 1", "select null::text", "commit"]);
    expect(script.mode).toBe("simple");
  });

  it("replays statements pipelined in one round trip inside \\startpipeline and \\endpipeline, in prepared mode", () => {
    const script = buildReplayScript(
      input(
        [simple("begin", 0), extended("select set_config('x', $1, true)", ["5"], 0), extended("select $1", ["a"], 0), extended("select $1", ["b"], 1), simple("commit", 2)],
        [[], ["text"], ["text"], ["text"], []],
      ),
    );
    expect(script.mode).toBe("prepared");
    expect(script.roundTrips).toEqual([0, 0, 0, 1, 2]);
    const body = renderPgbenchScript(script)
      .split("\n")
      .filter((l) => !l.startsWith("\\set"));
    expect(body).toEqual([
      "\\startpipeline",
      "begin;",
      "select set_config('x', concat('5')::text, true);",
      "select concat('a')::text;",
      "\\endpipeline",
      "select concat('b')::text;",
      "commit;",
      "",
    ]);
  });

  it("refuses pipelined statements that would need simple mode", () => {
    expect(() => buildReplayScript(input([simple("begin; select 1", 0), simple("select 2", 0)], [[], []]))).toThrow(/pipelined/);
  });

  it("refuses a statement that names a parameter it was not sent", () => {
    expect(() => buildReplayScript(input([extended("select $2", ["a"])], [["text"]]))).toThrow(/names \$2/);
  });

  it("writes literals with doubled quotes and colons as chr(58)", () => {
    expect(literal("it's")).toBe("'it''s'");
    expect(literal("a:b:")).toBe("('a' || chr(58) || 'b' || chr(58) || '')");
  });
});

describe("the shared transaction's script", () => {
  // A decision's two round trips: begin and a read of its name and wallet; a write and commit.
  const decision = () =>
    buildReplayScript(
      input(
        [
          simple("begin", 0),
          extended("select read($1, $2)", [`vaults/bench/transactions/${NAME}`, LOCK_ID], 0),
          extended("select write($1::text, $2)", [UUID, WALLET_HASH], 1),
          simple("commit", 1),
        ],
        [[], ["text", "int8"], ["text", "text"], []],
      ),
    );

  it("runs every member's read after begin in one round trip and every write before commit in the second, each with its own variables", () => {
    const script = sharedTransactionScript(decision(), 3);
    expect(script.roundTrips).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    expect(script.commands[0]).toBe("begin");
    expect(script.commands.at(-1)).toBe("commit");
    for (const k of [0, 1, 2]) {
      expect(script.commands[1 + k]).toMatch(new RegExp(`^select read\\(.*:cs_n_m${k}\\b`));
      expect(script.commands[4 + k]).toMatch(new RegExp(`^select write\\(.*::text`));
    }
    const rendered = renderPgbenchScript(script);
    const defined = new Set(script.variables.map((v) => v.name));
    for (const [, used] of rendered.matchAll(/(?<!:):([a-z][a-z0-9_]*)/g)) expect(defined.has(used!)).toBe(true);
    expect(defined.size).toBe(3 * decision().variables.length);
  });

  it("draws each member's wallet from its own share, so no two members share a window group", () => {
    const wallets = sharedTransactionScript(decision(), 4).variables.filter((v) => v.name.startsWith("cs_w_"));
    expect(wallets.map((v) => (v.kind === "random" ? [v.min, v.max] : null))).toEqual([
      [0n, 2499n],
      [2500n, 4999n],
      [5000n, 7499n],
      [7500n, 9999n],
    ]);
  });

  it("refuses a script that is not one transaction of two round trips", () => {
    const script = decision();
    expect(() => sharedTransactionScript({ ...script, commands: script.commands.slice(1), roundTrips: script.roundTrips.slice(1) }, 2)).toThrow(/begins and commits/);
  });
});

describe("pgbench's output", () => {
  it("reads tps without connection time and the transactions processed", () => {
    const out = "number of transactions actually processed: 1643\nlatency average = 9.7 ms\ntps = 823.265905 (without initial connection time)\n";
    expect(parsePgbenchOutput(out)).toEqual({ perSecond: 823.265905, transactions: 1643 });
  });

  it("refuses output without a tps line", () => {
    expect(() => parsePgbenchOutput("pgbench: error: connection failed")).toThrow(/no tps/);
  });
});
