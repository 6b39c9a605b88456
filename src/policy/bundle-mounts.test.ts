/**
 * The two ways Kubernetes puts a policy bundle in a pod, reproduced with real symbolic links:
 * a ConfigMap volume (`policy.yaml -> ..data/policy.yaml`, `..data -> ..<timestamp>`, swapped by
 * the kubelet) and git-sync (`--link` swapped to a new worktree under `.worktrees/<sha>`). Both
 * publish an update by renaming a new link over the old one; a read must never mix the two.
 */
import { mkdir, mkdtemp, realpath, rename, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { silentLogger } from "../log.js";
import { ActivePolicy } from "./active-policy.js";
import { type BundleFs, type BundleFsOp, performAsync, readBundleFiles } from "./bundle-files.js";
import { loadBundle, loadBundleSync } from "./load.js";

const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  // Real path: on some systems the temporary directory itself is behind a link.
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), "countersign-mount-")));
  made.push(dir);
  return dir;
}

async function writeTree(dir: string, files: Record<string, string>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
}

/** One revision of the bundle: its version names the revision in the policy and in the test file. */
function revision(version: string): Record<string, string> {
  return {
    "policy.yaml": `version: "${version}"\ndefault: deny\nrules:\n  - id: r\n    decision: allow\n    when: true\n`,
    // A bundle's own cases must pass before it is served (ActivePolicy), so each revision has one.
    "tests/cases.yaml": `# revision ${version}\ncases:\n  - name: allowed\n    transaction: {name: vaults/v1/transactions/t1, details: {evmAccountDelegation: {}}}\n    expect: allow\n`,
  };
}

/** Replaces `link` by a link to `target` in one rename, as the kubelet and git-sync do. */
async function swapLink(link: string, target: string): Promise<void> {
  const temporary = `${link}.tmp-${Date.now()}`;
  await symlink(target, temporary);
  await rename(temporary, link);
}

/** A ConfigMap volume as the kubelet's atomic writer lays it out. */
async function configMapVolume(version: string): Promise<{ mount: string; publish(version: string): Promise<void> }> {
  const mount = await tempDir();
  let current = "";
  let serial = 0;
  const publish = async (v: string) => {
    const stamped = `..2026_11_22_07_00_00.${String(++serial).padStart(9, "0")}`;
    await writeTree(path.join(mount, stamped), revision(v));
    if (current === "") {
      await symlink(stamped, path.join(mount, "..data"));
      await symlink("..data/policy.yaml", path.join(mount, "policy.yaml"));
      await symlink("..data/tests", path.join(mount, "tests"));
    } else {
      await swapLink(path.join(mount, "..data"), stamped);
      await rm(path.join(mount, current), { recursive: true });
    }
    current = stamped;
  };
  await publish(version);
  return { mount, publish };
}

/** A git-sync volume: `--root=<root> --link=policies-link`, the bundle in the repository's `policies/`. */
async function gitSyncVolume(version: string): Promise<{ root: string; bundle: string; publish(version: string, sha: string): Promise<void> }> {
  const root = await tempDir();
  await writeTree(root, { ".git/HEAD": "ref: refs/heads/main\n" });
  const link = path.join(root, "policies-link");
  let current: string | null = null;
  const publish = async (v: string, sha: string) => {
    const worktree = path.join(root, ".worktrees", sha);
    await writeTree(worktree, { ".git": `gitdir: ${root}/.git/worktrees/${sha}\n`, "README.md": "policies\n" });
    await writeTree(path.join(worktree, "policies"), revision(v));
    if (current === null) await symlink(`.worktrees/${sha}`, link);
    else await swapLink(link, `.worktrees/${sha}`);
    if (current !== null) await rm(current, { recursive: true });
    current = worktree;
  };
  await publish(version, "1111111");
  return { root, bundle: path.join(link, "policies"), publish };
}

async function versionOf(dir: string, options: { root?: string } = {}): Promise<string> {
  const result = await loadBundle(dir, options);
  if (!result.ok) throw new Error(result.error.message);
  return result.value.version;
}

async function plainDigest(version: string): Promise<string> {
  const dir = await tempDir();
  await writeTree(dir, revision(version));
  const result = await loadBundle(dir);
  if (!result.ok) throw new Error(result.error.message);
  return result.value.digest;
}

/**
 * The default file operations, with `during` run once right after the first read of a file
 * whose path ends with `afterReading`: a swap in the middle of reading one bundle.
 */
function swapMidway(afterReading: string, during: () => Promise<void>): { fs: BundleFs; reads: string[] } {
  const reads: string[] = [];
  let done = false;
  const fs: BundleFs = async (op: BundleFsOp) => {
    const result = await performAsync(op);
    if (op.op === "read") reads.push(op.path);
    if (!done && op.op === "read" && op.path.endsWith(afterReading)) {
      done = true;
      await during();
    }
    return result;
  };
  return { fs, reads };
}

function contentsOf(files: { path: string; bytes: Buffer }[]): Record<string, string> {
  return Object.fromEntries(files.map((f) => [f.path, f.bytes.toString("utf8")]));
}

describe("a ConfigMap volume", () => {
  it("loads through ..data, without Kubernetes' own entries, with the digest of the same files in a plain directory", async () => {
    const { mount } = await configMapVolume("cm-1");
    const result = await loadBundle(mount);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.version).toBe("cm-1");
    expect(result.value.digest).toBe(await plainDigest("cm-1"));
    expect(loadBundleSync(mount)).toEqual(result);
  });

  it("reloads the new revision after the kubelet swaps ..data", async () => {
    const volume = await configMapVolume("cm-1");
    const policy = await ActivePolicy.load(volume.mount, silentLogger);
    await volume.publish("cm-2");
    expect(await policy.reload()).toBe(true);
    expect(policy.current().version).toBe("cm-2");
    expect(policy.status().lastReloadError).toBeNull();
  });

  it("reads one revision when ..data is swapped between two files", async () => {
    const volume = await configMapVolume("cm-1");
    const { fs, reads } = swapMidway("policy.yaml", () => volume.publish("cm-2"));
    const read = await readBundleFiles(volume.mount, {}, fs);
    expect(read.problems).toEqual([]);
    expect(contentsOf(read.files)).toEqual(revision("cm-2"));
    expect(reads.filter((p) => p.endsWith("policy.yaml"))).toHaveLength(2); // read again after the swap
  });

  it("refuses a file linked out of the volume", async () => {
    const volume = await configMapVolume("cm-1");
    const outside = await tempDir();
    await writeFile(path.join(outside, "token"), "secret\n");
    await symlink(path.join(outside, "token"), path.join(volume.mount, "..data", "tests", "token.yaml"));
    const result = await loadBundle(volume.mount);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.problems).toEqual([{ file: "tests/token.yaml", message: expect.stringMatching(/symbolic link leaves the policy root/) }]);
  });
});

describe("a git-sync volume", () => {
  it("loads the bundle in the worktree behind the link, without .git", async () => {
    const volume = await gitSyncVolume("git-1");
    expect(await versionOf(volume.bundle, { root: volume.root })).toBe("git-1");
    expect(await versionOf(path.join(volume.root, "policies-link"), { root: volume.root }).catch((e: Error) => e.message)).toMatch(/no policy\.yaml/);
  });

  it("reloads the new commit after git-sync swaps its link, and keeps the bundle when the new one breaks", async () => {
    const volume = await gitSyncVolume("git-1");
    const policy = await ActivePolicy.load(volume.bundle, silentLogger, { root: volume.root });
    await volume.publish("git-2", "2222222");
    expect(await policy.reload()).toBe(true);
    expect(policy.current().version).toBe("git-2");

    const outside = await tempDir();
    await writeTree(outside, { "extra.yaml": "cases: []\n" });
    await volume.publish("git-3", "3333333");
    await symlink(path.join(outside, "extra.yaml"), path.join(volume.bundle, "tests", "extra.yaml"));
    expect(await policy.reload()).toBe(false);
    expect(policy.current().version).toBe("git-2");
    expect(policy.status().lastReloadError).toMatch(/tests\/extra\.yaml: symbolic link leaves the policy root/);
  });

  it("reads one commit when the link is swapped between two files", async () => {
    const volume = await gitSyncVolume("git-1");
    const { fs } = swapMidway("policy.yaml", () => volume.publish("git-2", "2222222"));
    const read = await readBundleFiles(volume.bundle, { root: volume.root }, fs);
    expect(read.problems).toEqual([]);
    expect(contentsOf(read.files)).toEqual(revision("git-2"));
  });

  it("follows a link inside the volume and refuses one that leaves it", async () => {
    const volume = await gitSyncVolume("git-1");
    const worktree = await realpath(path.join(volume.root, "policies-link"));
    await writeTree(worktree, { "shared/common.yaml": "cases: []\n" });
    await symlink("../../shared/common.yaml", path.join(volume.bundle, "tests", "common.yaml"));
    const inside = await loadBundle(volume.bundle, { root: volume.root });
    expect(inside.ok).toBe(true);

    // Without the volume as root, the bundle directory itself is the limit.
    const strict = await loadBundle(volume.bundle);
    expect(strict.ok).toBe(false);

    await symlink("/etc/hostname", path.join(volume.bundle, "tests", "host.yaml"));
    const leaving = await loadBundle(volume.bundle, { root: volume.root });
    expect(leaving.ok).toBe(false);
    if (leaving.ok) return;
    expect(leaving.error.problems.map((p) => p.file)).toEqual(["tests/host.yaml"]);
  });

  it("refuses a bundle directory that resolves outside the configured root", async () => {
    const volume = await gitSyncVolume("git-1");
    const other = await tempDir();
    const result = await loadBundle(volume.bundle, { root: other });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.problems[0]?.message).toMatch(/resolves outside the policy root/);
  });
});

describe("links that cannot be followed", () => {
  it("refuses a loop and a dangling link", async () => {
    const dir = await tempDir();
    await writeTree(dir, revision("1"));
    await symlink("..", path.join(dir, "tests", "up"));
    await symlink("missing.yaml", path.join(dir, "tests", "gone.yaml"));
    const result = await loadBundle(dir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.problems).toEqual(
      expect.arrayContaining([
        { file: "tests/up", message: "symbolic link loop" },
        { file: "tests/gone.yaml", message: "symbolic link to nothing" },
      ]),
    );
  });

  it("gives up on a bundle that changes on every read", async () => {
    const volume = await configMapVolume("cm-1");
    let serial = 1;
    const fs: BundleFs = async (op) => {
      const result = await performAsync(op);
      if (op.op === "read" && op.path.endsWith("policy.yaml")) await volume.publish(`cm-${++serial}`);
      return result;
    };
    const read = await readBundleFiles(volume.mount, {}, fs);
    expect(read.files).toEqual([]);
    expect(read.problems).toEqual([{ file: ".", message: expect.stringMatching(/kept changing/) }]);
  });
});
