/**
 * The Dockerfile, checked statically (no Docker engine on CI): it parses and validates with
 * dockerfile-utils, and its runtime stage has the shape the issue asks for. That the runtime stage
 * actually runs is proven by test/integration/deploy/production-install.test.ts, which reproduces it.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Copy, DockerfileParser, type Instruction } from "dockerfile-ast";
import { validate } from "dockerfile-utils";
import { describe, expect, it } from "vitest";
import { scratchDir } from "../../support/scratch.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");
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
    expect(args(base!)[0]).toMatch(/^NODE_IMAGE=node:24\.\d+\.\d+-(bookworm|trixie)-slim(@sha256:[0-9a-f]{64})?$/);
    expect([...stages().keys()]).toEqual(["build", "dependencies", "runtime"]);
    const install = stages()
      .get("dependencies")!
      .filter((i) => i.getKeyword() === "RUN")
      .map((i) => i.getArgumentsContent());
    expect(install.join("\n")).toMatch(/npm ci --omit=dev/);
  });

  it("pins every stage's base image by digest, keeping its tag for readability (a tag can be re-pointed, a digest cannot)", () => {
    const instructions = dockerfile.getInstructions();
    const firstFrom = instructions.findIndex((i) => i.getKeyword() === "FROM");
    // Only the ARGs before the first FROM can name a FROM's image.
    const globalArgs = new Map(
      instructions
        .slice(0, firstFrom)
        .filter((i) => i.getKeyword() === "ARG")
        .map((i): [string, string] => {
          const [name, ...value] = args(i)[0]!.split("=");
          return [name!, value.join("=")];
        }),
    );
    const stageNames = new Set<string>();
    const bases = instructions
      .filter((i) => i.getKeyword() === "FROM")
      .map((i) => {
        const [image, , name] = args(i).filter((a) => !a.startsWith("--"));
        if (name) stageNames.add(name);
        return image!.replace(/\$\{?(\w+)\}?/g, (_, arg: string) => globalArgs.get(arg) ?? "");
      })
      .filter((image) => !stageNames.has(image));
    expect(bases.length).toBeGreaterThan(0);
    for (const image of bases) expect(image).toMatch(/^[a-z0-9./-]+:[\w.-]+@sha256:[0-9a-f]{64}$/);
  });

  it("ships only compiled code, production dependencies and the bin in the runtime stage: no example policy to sign by", () => {
    const copies = inRuntime("COPY").map((i) => `${copyFrom(i) ?? "context"}:${args(i).slice(0, -1).join(" ")}`);
    expect(copies.sort()).toEqual(["build:/app/dist", "context:bin", "context:package.json", "dependencies:/app/node_modules"]);
    // The deployment's own bundle is mounted where the service looks for it.
    expect(
      inRuntime("ENV")
        .map((i) => i.getArgumentsContent())
        .join(" "),
    ).toMatch(/COUNTERSIGN_POLICIES=\/app\/policies/);
  });

  it("runs as a non-root numeric user with an exec-form `countersign serve` and a health check", () => {
    const user = args(inRuntime("USER").at(-1)!)[0]!;
    expect(user).toMatch(/^[1-9][0-9]*:[1-9][0-9]*$/);
    expect(JSON.parse(inRuntime("ENTRYPOINT")[0]!.getArgumentsContent()!)).toEqual(["countersign"]);
    expect(JSON.parse(inRuntime("CMD")[0]!.getArgumentsContent()!)).toEqual(["serve"]);
    expect(inRuntime("HEALTHCHECK")[0]!.getArgumentsContent()).toMatch(/\/healthz/);
  });

  it("writes only to its data volume: the data directory is the one volume and the only chown", () => {
    const env = inRuntime("ENV")
      .map((i) => i.getArgumentsContent())
      .join(" ");
    expect(env).toMatch(/COUNTERSIGN_DATA_DIR=\/var\/lib\/countersign/);
    expect(JSON.parse(inRuntime("VOLUME")[0]!.getArgumentsContent()!)).toEqual(["/var/lib/countersign"]);
    const run = inRuntime("RUN")
      .map((i) => i.getArgumentsContent())
      .join("\n");
    expect(run.match(/chown \S+ (\S+)/g)).toEqual(["chown 1000:1000 /var/lib/countersign"]);
  });

  it("has no package manager in the runtime stage: npm, npx, corepack and yarn are removed, and nothing runs them", () => {
    const run = inRuntime("RUN")
      .map((i) => i.getArgumentsContent()!)
      .join("\n");
    for (const removed of [
      "/usr/local/lib/node_modules/npm",
      "/usr/local/lib/node_modules/corepack",
      "/usr/local/bin/npm",
      "/usr/local/bin/npx",
      "/usr/local/bin/corepack",
      "/usr/local/bin/yarn",
    ]) {
      expect(run, removed).toMatch(new RegExp(`rm -rf [^&]*${removed.replaceAll("/", "\\/")}(\\s|$)`));
    }
    expect(run).not.toMatch(/(^|&&|;|\|)\s*(npm|npx|corepack|yarn)\b/m);
  });

  it("labels the image with the OCI annotations: title, version and revision from build arguments, and its base", () => {
    const labels = inRuntime("LABEL").flatMap((i) => i.getArgumentsContent()!.split(/\s*\\?\n\s*|\s+(?=org\.)/));
    const keys = labels.map((l) => l.split("=")[0]!.trim()).filter(Boolean);
    expect(keys).toEqual(
      expect.arrayContaining(["org.opencontainers.image.title", "org.opencontainers.image.version", "org.opencontainers.image.revision", "org.opencontainers.image.base.name"]),
    );
    expect(labels.join(" ")).toMatch(/org\.opencontainers\.image\.version="\$\{VERSION\}"/);
    expect(inRuntime("ARG").map((i) => args(i)[0])).toEqual(expect.arrayContaining(["NODE_IMAGE", "VERSION", "REVISION"]));
  });

  /**
   * A copy of the Dockerfile and the script, with a stand-in `crane` whose registry holds one tag,
   * node:24.99.0-bookworm-slim, at `digest`, whose manifest is `manifest`.
   */
  function baseImageUpdate(digest: string, manifest: object) {
    const copy = scratchDir("base-image");
    mkdirSync(path.join(copy, "scripts"));
    mkdirSync(path.join(copy, "bin"));
    copyFileSync(path.join(ROOT, "scripts/update-base-image.sh"), path.join(copy, "scripts/update-base-image.sh"));
    copyFileSync(path.join(ROOT, "Dockerfile"), path.join(copy, "Dockerfile"));
    writeFileSync(
      path.join(copy, "bin/crane"),
      [
        "#!/bin/sh",
        `[ "$1" = digest ] && [ "$2" = node:24.99.0-bookworm-slim ] && echo ${digest} && exit 0`,
        `[ "$1" = manifest ] && [ "$2" = node:24.99.0-bookworm-slim@${digest} ] && echo '${JSON.stringify(manifest)}' && exit 0`,
        "exit 1",
        "",
      ].join("\n"),
    );
    chmodSync(path.join(copy, "bin/crane"), 0o755);
    return { copy, env: { PATH: `${path.join(copy, "bin")}:/usr/bin:/bin` } };
  }
  const platformImage = (arch: string) => ({
    mediaType: "application/vnd.oci.image.manifest.v1+json",
    digest: `sha256:${arch.padEnd(64, "0")}`,
    platform: { os: "linux", architecture: arch },
  });

  it("scripts/update-base-image.sh pins the base image's tag by the digest the registry gives (crane stands in for it)", () => {
    const digest = `sha256:${"5e".repeat(32)}`;
    const index = { schemaVersion: 2, mediaType: "application/vnd.oci.image.index.v1+json", manifests: [platformImage("amd64"), platformImage("arm64")] };
    const { copy, env } = baseImageUpdate(digest, index);
    execFileSync("sh", [path.join(copy, "scripts/update-base-image.sh"), "node:24.99.0-bookworm-slim"], { env, stdio: "pipe" });
    const pinned = readFileSync(path.join(copy, "Dockerfile"), "utf8");
    expect(pinned.match(/^ARG NODE_IMAGE=.*$/m)![0]).toBe(`ARG NODE_IMAGE=node:24.99.0-bookworm-slim@${digest}`);
    expect(validate(pinned)).toEqual([]);
    // Run again without an argument: the tag is kept and the digest taken afresh, not appended twice.
    execFileSync("sh", [path.join(copy, "scripts/update-base-image.sh")], { env, stdio: "pipe" });
    expect(readFileSync(path.join(copy, "Dockerfile"), "utf8")).toBe(pinned);
  });

  it("scripts/update-base-image.sh refuses a digest that is one platform's image, not the tag's multi-platform index, and leaves the Dockerfile as it was", () => {
    const single = { schemaVersion: 2, mediaType: "application/vnd.oci.image.manifest.v1+json", config: { digest: `sha256:${"c0".repeat(32)}` }, layers: [] };
    const { copy, env } = baseImageUpdate(`sha256:${"a1".repeat(32)}`, single);
    const run = () => execFileSync("sh", [path.join(copy, "scripts/update-base-image.sh"), "node:24.99.0-bookworm-slim"], { env, stdio: "pipe" });
    expect(run).toThrow(/not a multi-platform index/);
    expect(readFileSync(path.join(copy, "Dockerfile"), "utf8")).toBe(text);
  });

  it(".dockerignore excludes everything but what the stages copy from the context", () => {
    const ignore = readFileSync(path.join(ROOT, ".dockerignore"), "utf8")
      .split("\n")
      .map((l) => l.trim());
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
