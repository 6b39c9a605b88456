/**
 * What a replayed statement's values are on a real server: the captured value with each
 * variable's number in its place, and read at every execution, as a bound parameter is.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildReplayScript } from "../../../bench/replay-script.js";
import { serverUrl } from "../../support/postgres.js";

const NAME = "0123456789abcdef0123456789abcdef";
const ROW = {
  // colons (pgbench's `:word`), a percent sign, quotes, a backslash and a non-ASCII character
  trace: `[{"rule":"eth-limit","text":"transfer.amount = 0.001 > 20","at":"10:41:45","share":"5%","q":"it's \\"x\\" \\\\ é"}]`,
  facts: `{"tx":{"name":"vaults/bench/transactions/${NAME}"},"source":"vaults/bench/wallets/hot7391","at":"10:41:45"}`,
  // more pieces than one concat() takes (100 arguments)
  names: JSON.stringify(Array.from({ length: 60 }, (_, i) => `${i}:${NAME}`)),
};

/** The trace as the server prints a jsonb it has parsed. */
const PARSED_TRACE = /'\[\{"q": "it''s .*'::jsonb/;

/** pgbench's prepared mode: each `:variable` becomes the next `$n`, bound to the variable's value. */
function prepared(command: string, values: Map<string, bigint>): { text: string; params: string[] } {
  const params: string[] = [];
  const text = command.replace(/:(cs_[a-z0-9_]+)/g, (_m, name: string) => {
    params.push(String(values.get(name)));
    return `$${params.length}`;
  });
  return { text, params };
}

describe("a replayed statement's values on the server", () => {
  let client: pg.Client;
  let command: string;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: serverUrl() });
    await client.connect();
    const script = buildReplayScript({
      statements: [{ text: "select $1::jsonb as trace, $2::jsonb as facts, $3::jsonb as names", values: [ROW.trace, ROW.facts, ROW.names], extended: true, roundTrip: 0 }],
      parameterTypes: [["jsonb", "jsonb", "jsonb"]],
      nameToken: NAME,
      walletToken: "hot7391",
      sameWallet: "",
      otherWallet: "",
      wallets: 10_000,
    });
    command = script.commands[0]!;
  });
  afterAll(async () => {
    await client.end();
  });

  it("is the captured value, with each variable's number where its token was", async () => {
    const { text, params } = prepared(
      command,
      new Map([
        ["cs_n", 987654321n],
        ["cs_w", 42n],
      ]),
    );
    const { rows } = await client.query<{ trace: unknown; facts: unknown; names: unknown }>(text, params);
    expect(rows[0]!.trace).toEqual(JSON.parse(ROW.trace));
    expect(rows[0]!.facts).toEqual(JSON.parse(ROW.facts.replace(NAME, "987654321").replace("hot7391", "hot42")));
    expect(rows[0]!.names).toEqual(JSON.parse(ROW.names.replaceAll(NAME, "987654321")));
    expect(command.match(/concat\(/g)).toHaveLength(4); // trace, facts, names in two
  });

  it("is read at every execution of the prepared statement, a constant value too (not once, when prepared)", async () => {
    const { text, params } = prepared(
      command,
      new Map([
        ["cs_n", 1n],
        ["cs_w", 2n],
      ]),
    );
    await client.query("set plan_cache_mode = force_generic_plan");
    await client.query(`prepare replayed as ${text}`);
    const { rows } = await client.query<{ "QUERY PLAN": string }>(`explain (verbose, costs off) execute replayed(${params.join(", ")})`);
    const output = rows.map((r) => r["QUERY PLAN"]).join("\n");
    // The trace holds no variable: as a bare literal it would be a jsonb constant in the plan,
    // printed as jsonb prints it (keys sorted by length, "q" first).
    expect(output).toMatch(/\(concat\('\[\{"rule"/);
    expect(output).not.toMatch(PARSED_TRACE);
    await client.query("deallocate replayed");
    // The contrast: the same value as a bare literal is parsed once, into the plan.
    await client.query(`prepare literal as select '${ROW.trace.replaceAll("'", "''")}'::jsonb as trace`);
    const literal = await client.query<{ "QUERY PLAN": string }>("explain (verbose, costs off) execute literal");
    expect(literal.rows.map((r) => r["QUERY PLAN"]).join("\n")).toMatch(PARSED_TRACE);
  });
});
