/**
 * The Dockerfile, checked statically (no Docker engine on CI): it parses and validates with
 * dockerfile-utils, and its runtime stage has the shape the issue asks for. That the runtime stage
 * actually runs is proven by test/deploy/production-install.test.ts, which reproduces it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Copy, DockerfileParser, type Instruction } from "dockerfile-ast";
import { validate } from "dockerfile-utils";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const text = readFileSync(path.join(ROOT, "Dockerfile"), "utf8");
const dockerfile = DockerfileParser.parse(text);
const args = (i: Instruction) => i.getArguments().map((a) => a.getValue());
/** The stage a COPY takes its files from (`--from=`), undefined for the build context. */
const copyFrom = (i: Instruction) => (i instanceof Copy ? (i.getFromFlag()?.getValue() ?? undefined) : undefined);

/** Instructions of each stage, by stage name. */
function stages(): Map<string, Instruction[]> {
  const byStage = new Map<string, Instruction[]>();
  let current: Instruction[] | undefined;
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction.getKeyword() === "FROM") {
      current = [];
      byStage.set(args(instruction)[2] ?? `stage${byStage.size}`, current);
    }
    current?.push(instruction);
  }
  return byStage;
}

const runtime = [...stages().values()].at(-1)!;
const inRuntime = (keyword: string) => runtime.filter((i) => i.getKeyword() === keyword);

describe("Dockerfile", () => {
  it("validates with dockerfile-utils (which does report a broken file)", () => {
    expect(validate(text)).toEqual([]);
    expect(validate(text.replace("USER 1000:1000", "USER").replace('CMD ["serve"]', "CMD ['serve']")).length).toBeGreaterThan(0);
  });

  it("builds on an exact Node 24 tag, in separate build, dependency and runtime stages", () => {
    const base = dockerfile.getInstructions().find((i) => i.getKeyword() === "ARG" && args(i)[0]?.startsWith("NODE_IMAGE="));
    expect(args(base!)[0]).toMatch(/^NODE_IMAGE=node:24\.\d+\.\d+-(bookworm|trixie)-slim$/);
    expect([...stages().keys()]).toEqual(["build", "dependencies", "runtime"]);
    const install = stages().get("dependencies")!.filter((i) => i.getKeyword() === "RUN").map((i) => i.getArgumentsContent());
    expect(install.join("\n")).toMatch(/npm ci --omit=dev/);
  });

  it("ships only compiled code, production dependencies, the bin and the example policy in the runtime stage", () => {
    const copies = inRuntime("COPY").map((i) => `${copyFrom(i) ?? "context"}:${args(i).slice(0, -1).join(" ")}`);
    expect(copies.sort()).toEqual(["build:/app/dist", "context:bin", "context:package.json", "context:policies", "dependencies:/app/node_modules"]);
  });

  it("runs as a non-root numeric user with an exec-form `countersign serve` and a health check", () => {
    const user = args(inRuntime("USER").at(-1)!)[0]!;
    expect(user).toMatch(/^[1-9][0-9]*:[1-9][0-9]*$/);
    expect(JSON.parse(inRuntime("ENTRYPOINT")[0]!.getArgumentsContent()!)).toEqual(["countersign"]);
    expect(JSON.parse(inRuntime("CMD")[0]!.getArgumentsContent()!)).toEqual(["serve"]);
    expect(inRuntime("HEALTHCHECK")[0]!.getArgumentsContent()).toMatch(/\/healthz/);
  });

  it("writes only to its data volume: the data directory is the one volume and the only chown", () => {
    const env = inRuntime("ENV").map((i) => i.getArgumentsContent()).join(" ");
    expect(env).toMatch(/COUNTERSIGN_DATA_DIR=\/var\/lib\/countersign/);
    expect(JSON.parse(inRuntime("VOLUME")[0]!.getArgumentsContent()!)).toEqual(["/var/lib/countersign"]);
    const run = inRuntime("RUN").map((i) => i.getArgumentsContent()).join("\n");
    expect(run.match(/chown \S+ (\S+)/g)).toEqual(["chown 1000:1000 /var/lib/countersign"]);
  });

  it(".dockerignore excludes everything but what the stages copy from the context", () => {
    const ignore = readFileSync(path.join(ROOT, ".dockerignore"), "utf8").split("\n").map((l) => l.trim());
    expect(ignore.filter((l) => l && !l.startsWith("#"))[0]).toBe("*");
    const fromContext = dockerfile
      .getInstructions()
      .filter((i) => i.getKeyword() === "COPY" && copyFrom(i) === undefined)
      .flatMap((i) => args(i).slice(0, -1));
    for (const source of new Set(fromContext)) {
      expect(ignore.includes(`!${source}`) || ignore.includes(`!${source}/`), source).toBe(true);
    }
  });
});
