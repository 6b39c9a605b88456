import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type BundleLoadError, bundleFromFiles, loadBundle, loadBundleSync } from "./load.js";
import type { PolicyBundle } from "../core/policy/types.js";

const made: string[] = [];

async function bundleDir(files: Record<string, string | Buffer>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "countersign-bundle-"));
  made.push(dir);
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
  return dir;
}

afterAll(async () => {
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

const EXAMPLE = `# The contract's example, comments and all
version: "2026-11-21.1"          # required; recorded on every decision
description: Treasury vault policy
default: deny                    # deny | defer
windows:
  - name: daily_out
    duration: 24h
    groupBy: [sourceWallet, asset]
  - name: hourly_count
    duration: 1h
    groupBy: [sourceWallet]
    measure: count
rules:
  - id: only-transfers
    decision: deny
    reason: Only asset transfers are signed automatically
    when: {"!": {"in": [{"var": "tx.kind"}, ["assetTransfer", "stellarTransaction"]]}}
  - id: address-book-daily-limit
    decision: allow
    when:
      and:
        - {"var": "transfer.destination.inAddressBook"}
        - {"<=": [{"var": "transfer.amount"}, "1000"]}
        - {"<=": [{"var": "velocity.daily_out.amountAfter"}, "5000"]}
`;

/** A policy whose rules section is replaced by the given YAML. */
function policyWith(rules: string, head = 'version: "1"\ndefault: deny\n'): string {
  return `${head}rules:\n${rules}`;
}

async function loadOk(files: Record<string, string | Buffer>): Promise<PolicyBundle> {
  const result = await loadBundle(await bundleDir(files));
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

async function loadErr(files: Record<string, string | Buffer>): Promise<BundleLoadError> {
  const result = await loadBundle(await bundleDir(files));
  if (result.ok) throw new Error("expected the bundle to be refused");
  return result.error;
}

describe("loadBundle: a valid bundle", () => {
  it("loads the contract's example with YAML comments", async () => {
    const bundle = await loadOk({ "policy.yaml": EXAMPLE, "tests/basic.yaml": "cases: []\n" });
    expect(bundle.version).toBe("2026-11-21.1");
    expect(bundle.description).toBe("Treasury vault policy");
    expect(bundle.default).toBe("deny");
    expect(bundle.windows).toEqual([
      { name: "daily_out", duration: "24h", durationSeconds: 86400, groupBy: ["sourceWallet", "asset"], measure: "amount" },
      { name: "hourly_count", duration: "1h", durationSeconds: 3600, groupBy: ["sourceWallet"], measure: "count" },
    ]);
    expect(bundle.rules.map((r) => [r.id, r.decision, r.reason])).toEqual([
      ["only-transfers", "deny", "Only asset transfers are signed automatically"],
      ["address-book-daily-limit", "allow", null],
    ]);
    expect(bundle.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.isFrozen(bundle.rules[0]?.when)).toBe(true);
  });

  it("loads policy.json", async () => {
    const bundle = await loadOk({ "policy.json": JSON.stringify({ version: "j1", default: "defer", rules: [{ id: "a", decision: "allow", when: true }] }) });
    expect(bundle.default).toBe("defer");
    expect(bundle.windows).toEqual([]);
  });

  it("gives the same result from the sync variant", async () => {
    const dir = await bundleDir({ "policy.yaml": EXAMPLE });
    const async = await loadBundle(dir);
    expect(loadBundleSync(dir)).toEqual(async);
  });
});

describe("loadBundle: each problem names file, rule and path", () => {
  const rule = (extra: string, when = "true", id = "r1") => `  - id: ${id}\n    decision: allow\n${extra}    when: ${when}\n`;
  it.each([
    ["unknown key in a rule", policyWith(rule("    colour: red\n")), "r1", "rules[0].colour", /unknown key "colour"/],
    ["unknown top-level key", policyWith(rule(""), 'version: "1"\ndefault: deny\nowner: me\n'), undefined, "owner", /unknown key "owner"/],
    [
      "unknown key in a window",
      policyWith(rule(""), 'version: "1"\ndefault: deny\nwindows:\n  - {name: w, duration: 1h, groupBy: [asset], size: 3}\n'),
      undefined,
      "windows[0].size",
      /unknown key "size"/,
    ],
    ["duplicate rule id", policyWith(rule("") + rule("", "false")), "r1", "rules[1].id", /duplicate rule id "r1"/],
    ["unknown operation", policyWith(rule("", '{"frob": [1]}')), "r1", "rules[0].when.frob", /unknown operation "frob"/],
    ["method", policyWith(rule("", '{"method": ["x", "toUpperCase"]}')), "r1", "rules[0].when.method", /"method" operation is not allowed/],
    ["var through __proto__", policyWith(rule("", '{"and": [true, {"<=": [{"var": "tx.__proto__.x"}, 1]}]}')), "r1", 'rules[0].when.and[1]["<="][0].var', /"__proto__"/],
    ["var through constructor", policyWith(rule("", '{"var": "tx.constructor"}')), "r1", "rules[0].when.var", /"constructor"/],
    ["var through prototype", policyWith(rule("", '{"var": "tx.prototype"}')), "r1", "rules[0].when.var", /"prototype"/],
    ["computed var path", policyWith(rule("", '{"var": {"cat": ["tx.", "kind"]}}')), "r1", "rules[0].when.var", /computed/],
    ["undeclared window", policyWith(rule("", '{"<": [{"var": "velocity.weekly.count"}, 3]}')), "r1", 'rules[0].when["<"][0].var', /no declared window/],
    // A misspelt fact reads null, and `in` on null is false: the deny rule would silently never match.
    [
      "a var path that names no fact",
      policyWith(rule("", '{"in": [{"var": "transfer.destination.adress"}, ["0x1"]]}')),
      "r1",
      "rules[0].when.in[0].var",
      /names no fact: transfer\.destination has value/,
    ],
    // YAML reads an unquoted 12345 as a number; the id is text, so `===` never holds and a deny rule never denies.
    [
      "a text fact against an unquoted number",
      policyWith(rule("", '{"===": [{"var": "transfer.destination.muxedId"}, 12345]}')),
      "r1",
      'rules[0].when["==="][1]',
      /transfer\.destination\.muxedId, which is text, with the number 12345: they are never equal \(write "12345"\)/,
    ],
    // Plain equality: a payment to a muxed address or a tagged X-address is not its account's G…/r…, so a deny rule so written would let it through.
    [
      "a Stellar account against a destination's address",
      policyWith(rule("", '{"==": [{"var": "transfer.destination.address"}, "GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN"]}')),
      "r1",
      'rules[0].when["=="][1]',
      /compares transfer\.destination\.address with GA5Z\S+, an account with sub-accounts .*: compare transfer\.destination\.baseAccount/,
    ],
    [
      "an XRP account in a list against a source's value",
      policyWith(rule("", '{"in": [{"var": "transfer.source.value"}, ["rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf"]]}')),
      "r1",
      "rules[0].when.in[1][0]",
      /compare transfer\.source\.baseAccount/,
    ],
    [
      "an XRP account in a list written as one string",
      policyWith(rule("", '{"in": [{"var": "transfer.destination.address"}, "0x1, rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf"]}')),
      "r1",
      "rules[0].when.in[1]",
      /compare transfer\.destination\.baseAccount/,
    ],
    [
      "a bare Stellar asset against transfer.asset",
      policyWith(rule("", '{"==": [{"var": "transfer.asset"}, "USDC-GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN"]}')),
      "r1",
      'rules[0].when["=="][1]',
      /names no network: .*write assets\/asset\.stellar-mainnet\.USDC-GA5Z/,
    ],
    [
      "a number fact in a list of texts",
      policyWith(rule("", '{"in": [{"var": "nowWeekday"}, ["0", 6]]}')),
      "r1",
      "rules[0].when.in[1][0]",
      /nowWeekday, which is a number, with the text "0"/,
    ],
    // `in` compares a list fact with each item as a whole: a deny rule written so never denied.
    [
      "a list fact looked for as one item",
      policyWith(rule("", '{"in": [{"var": "tx.designatedSigners"}, ["users/policy-bot@treasury.example"]]}')),
      "r1",
      "rules[0].when.in[0]",
      /tx\.designatedSigners, which is a list, as one item: it is never found \(to find any of its items, write \{"some"/,
    ],
    [
      "amount window without asset",
      policyWith(rule(""), 'version: "1"\ndefault: deny\nwindows:\n  - {name: w, duration: 1h, groupBy: [sourceWallet]}\n'),
      undefined,
      "windows[0].groupBy",
      /must be grouped by asset/,
    ],
    [
      "duplicate groupBy",
      policyWith(rule(""), 'version: "1"\ndefault: deny\nwindows:\n  - {name: w, duration: 1h, groupBy: [asset, asset]}\n'),
      undefined,
      "windows[0].groupBy",
      /twice/,
    ],
    [
      "duplicate window name",
      policyWith(rule(""), 'version: "1"\ndefault: deny\nwindows:\n  - {name: w, duration: 1h, groupBy: [asset]}\n  - {name: w, duration: 2h, groupBy: [asset]}\n'),
      undefined,
      "windows[1].name",
      /duplicate window name "w"/,
    ],
    [
      "bad duration",
      policyWith(rule(""), 'version: "1"\ndefault: deny\nwindows:\n  - {name: w, duration: 24hours, groupBy: [asset]}\n'),
      undefined,
      "windows[0].duration",
      /duration/,
    ],
    ["zero duration", policyWith(rule(""), 'version: "1"\ndefault: deny\nwindows:\n  - {name: w, duration: 0s, groupBy: [asset]}\n'), undefined, "windows[0].duration", /positive/],
    // An unbounded window's start is no date: every decision reading it (live or shadow) deferred.
    [
      "window past ten years",
      policyWith(rule(""), 'version: "1"\ndefault: deny\nwindows:\n  - {name: w, duration: 3661d, groupBy: [asset]}\n'),
      undefined,
      "windows[0].duration",
      /at most 3660d/,
    ],
    [
      "window of 999999999 days",
      policyWith(rule(""), 'version: "1"\ndefault: deny\nwindows:\n  - {name: w, duration: 999999999d, groupBy: [asset]}\n'),
      undefined,
      "windows[0].duration",
      /at most 3660d/,
    ],
    ["default allow", policyWith(rule(""), 'version: "1"\ndefault: allow\n'), undefined, "default", /allow is not accepted/],
    ["missing version", policyWith(rule(""), "default: deny\n"), undefined, "version", /required/],
    ["missing when", policyWith("  - id: r1\n    decision: deny\n"), "r1", "rules[0].when", /required/],
    ["empty when", policyWith("  - id: r1\n    decision: deny\n    when:\n"), "r1", "rules[0].when", /when is empty/],
    [
      "when as a list of conditions",
      policyWith('  - id: r1\n    decision: allow\n    when:\n      - {"var": "transfer.destination.inAddressBook"}\n      - {"<=": [{"var": "transfer.amount"}, "1000"]}\n'),
      "r1",
      "rules[0].when",
      /when is a list.*"and"/,
    ],
    [
      "when as a quoted expression",
      policyWith(`  - id: r1\n    decision: allow\n    when: '{"var": "transfer.destination.inAddressBook"}'\n`),
      "r1",
      "rules[0].when",
      /when is a string/,
    ],
    ["when as a number", policyWith("  - id: r1\n    decision: allow\n    when: 1\n"), "r1", "rules[0].when", /constant 1/],
    [
      "a list of conditions inside or",
      policyWith(rule("", '{"or": [[{"var": "transfer.destination.inAddressBook"}, {"var": "transfer.destination.internal"}]]}')),
      "r1",
      "rules[0].when.or[0]",
      /list of conditions.*always true/,
    ],
    [
      "a list of conditions as some's predicate",
      policyWith(rule("", '{"some": [{"var": "tx.payloads"}, [{"===": [{"var": ""}, "x"]}]]}')),
      "r1",
      "rules[0].when.some[1]",
      /list of conditions/,
    ],
    [
      "a list of conditions as an if's condition",
      policyWith(rule("", '{"if": [[{"var": "transfer.destination.internal"}], true, false]}')),
      "r1",
      "rules[0].when.if[0]",
      /list of conditions/,
    ],
    ["unquoted numeric version", policyWith(rule(""), "version: 2026.1\ndefault: deny\n"), undefined, "version", /must be a string/],
    ["bad decision", policyWith("  - id: r1\n    decision: sign\n    when: true\n"), "r1", "rules[0].decision", /allow, deny or defer/],
    ["__proto__ key in YAML", policyWith(rule("", '{"__proto__": {"x": 1}}')), "r1", "rules[0].when.__proto__", /"__proto__" is not allowed/],
    [
      "number a double cannot hold",
      policyWith(rule("", '{"<=": [{"var": "transfer.amount"}, 1000.000000000000000001]}')),
      "r1",
      'rules[0].when["<="][1]',
      /cannot be held exactly/,
    ],
    ["hexadecimal number", policyWith(rule("", '{"<=": [{"var": "transfer.amount"}, 0x10]}')), "r1", 'rules[0].when["<="][1]', /plain decimal/],
    // Arithmetic gives its exact decimal as text: "0" is a true condition, so an allow rule so written allowed everything.
    [
      "an arithmetic result as the rule's condition",
      policyWith(rule("", '{"-": [{"var": "transfer.amount"}, "100"]}', "over-100")),
      "over-100",
      'rules[0].when["-"]',
      /result of "-" is read here as true or false.*true even when it is "0"/,
    ],
    // …and it never equals a number under ===: a deny rule so written never denied.
    [
      "an arithmetic result compared strictly with a number",
      policyWith(rule("", '{"===": [{"+": [{"var": "transfer.index"}, 1]}, 1]}', "first-transfer")),
      "first-transfer",
      'rules[0].when["==="][0]["+"]',
      /"===" compares types and spelling, and the result of "\+" is its exact decimal as text.*use "=="/,
    ],
  ])("%s", async (_name, yaml, ruleId, problemPath, message) => {
    const error = await loadErr({ "policy.yaml": yaml });
    const problem = error.problems.find((p) => p.path === problemPath);
    expect(problem, error.message).toBeDefined();
    expect(problem?.file).toBe("policy.yaml");
    expect(problem?.rule).toBe(ruleId);
    expect(problem?.message).toMatch(message);
    const line = error.message.split("\n").find((l) => l.includes(`at ${problemPath}:`));
    expect(line).toContain("policy.yaml");
    if (ruleId) expect(line).toContain(`rule "${ruleId}"`);
  });

  it("reports all problems at once", async () => {
    const error = await loadErr({ "policy.yaml": policyWith(rule("    colour: red\n", '{"frob": 1}') + rule("", "true"), 'version: "1"\ndefault: allow\n') });
    expect(error.problems.map((p) => p.path).sort()).toEqual(["default", "rules[0].colour", "rules[0].when.frob", "rules[1].id"].sort());
    expect(error.message).toMatch(/^policy bundle .* is invalid \(4 problems\):/);
  });

  it("refuses a pathologically nested expression without crashing", async () => {
    const deep = `${'{"!": '.repeat(20000)}true${"}".repeat(20000)}`;
    const error = await loadErr({ "policy.json": `{"version": "1", "default": "deny", "rules": [{"id": "a", "decision": "allow", "when": ${deep}}]}` });
    expect(error.problems[0]?.file).toBe("policy.json");
  });

  it("refuses duplicate YAML keys", async () => {
    const error = await loadErr({ "policy.yaml": 'version: "1"\ndefault: deny\ndefault: defer\nrules: []\n' });
    expect(error.problems[0]).toMatchObject({ file: "policy.yaml", message: expect.stringMatching(/unique/) });
  });

  it("refuses duplicate JSON keys, which JSON.parse would let the last one win", async () => {
    const error = await loadErr({ "policy.json": '{"version": "1", "default": "deny", "rules": [{"id": "a", "decision": "deny", "decision": "allow", "when": true}]}' });
    expect(error.problems[0]).toMatchObject({ file: "policy.json", message: expect.stringMatching(/unique/) });
  });

  it("refuses a __proto__ key in JSON", async () => {
    const error = await loadErr({ "policy.json": '{"version": "1", "default": "deny", "rules": [], "__proto__": {"default": "allow"}}' });
    expect(error.problems).toContainEqual({ file: "policy.json", path: "__proto__", message: '"__proto__" is not allowed as a key' });
  });

  it("refuses both policy.yaml and policy.json", async () => {
    const error = await loadErr({ "policy.yaml": EXAMPLE, "policy.json": "{}" });
    expect(error.problems).toEqual([{ file: ".", message: expect.stringMatching(/policy\.json and policy\.yaml/) }]);
  });

  it("refuses a bundle without a policy file", async () => {
    const error = await loadErr({ "tests/a.yaml": "cases: []\n" });
    expect(error.problems[0]?.message).toMatch(/no policy\.yaml/);
  });

  it("refuses a directory that does not exist", async () => {
    const result = await loadBundle(path.join(tmpdir(), "countersign-no-such-bundle-dir"));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.problems[0]?.message).toMatch(/does not exist/);
  });

  it("refuses symlinks that leave the bundle, and oversized files", async () => {
    const dir = await bundleDir({ "policy.yaml": EXAMPLE, "tests/big.yaml": Buffer.alloc(1024 * 1024 + 1, 0x20) });
    const elsewhere = await bundleDir({ "secret.yaml": "cases: []\n" });
    await symlink(path.join(elsewhere, "secret.yaml"), path.join(dir, "tests", "link.yaml"));
    const result = await loadBundle(dir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.problems).toEqual(
      expect.arrayContaining([
        { file: "tests/big.yaml", message: expect.stringMatching(/at most 1048576 bytes/) },
        { file: "tests/link.yaml", message: expect.stringMatching(/symbolic link leaves the policy root/) },
      ]),
    );
    expect(loadBundleSync(dir)).toEqual(result);
  });
});

describe("bundle digest", () => {
  it("does not depend on where the bundle lives", async () => {
    const a = await loadOk({ "policy.yaml": EXAMPLE, "tests/a.yaml": "cases: []\n" });
    const b = await loadOk({ "policy.yaml": EXAMPLE, "tests/a.yaml": "cases: []\n" });
    expect(a.digest).toBe(b.digest);
  });

  it("changes when a test file changes, is renamed, or is added", async () => {
    const dir = await bundleDir({ "policy.yaml": EXAMPLE, "tests/a.yaml": "cases: []\n" });
    const digest = async () => {
      const result = await loadBundle(dir);
      if (!result.ok) throw result.error;
      return result.value.digest;
    };
    const seen = [await digest()];
    await writeFile(path.join(dir, "tests/a.yaml"), "cases: [] \n");
    seen.push(await digest());
    await rename(path.join(dir, "tests/a.yaml"), path.join(dir, "tests/b.yaml"));
    seen.push(await digest());
    await writeFile(path.join(dir, "tests/c.yaml"), "");
    seen.push(await digest());
    expect(new Set(seen).size).toBe(4);
  });

  it("changes when the policy changes only in a comment", async () => {
    const a = await loadOk({ "policy.yaml": EXAMPLE });
    const b = await loadOk({ "policy.yaml": `${EXAMPLE}# reviewed\n` });
    expect(a.digest).not.toBe(b.digest);
  });
});

describe("bundleFromFiles", () => {
  it("digests in canonical order whatever order the files come in", () => {
    const files = [
      { path: "tests/b.yaml", bytes: Buffer.from("b") },
      { path: "policy.yaml", bytes: Buffer.from(EXAMPLE) },
      { path: "tests/a.yaml", bytes: Buffer.from("a") },
    ];
    const forward = bundleFromFiles("m", files);
    const backward = bundleFromFiles("m", [...files].reverse());
    expect(forward.ok && backward.ok && forward.value.digest === backward.value.digest).toBe(true);
  });
});
