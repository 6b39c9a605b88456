/**
 * Reading a bundle directory: every regular file, recursively, with its bytes, as one consistent
 * snapshot.
 *
 * Kubernetes publishes mounted files through symbolic links: a ConfigMap volume holds
 * `policy.yaml -> ..data/policy.yaml` and `..data -> ..2026_11_22_...`, and swaps `..data` on
 * update; git-sync swaps its `--link` to a new worktree for each commit. So links are followed
 * when they resolve inside the policy root (by default the bundle directory's own resolved
 * path; COUNTERSIGN_POLICIES_ROOT widens it to the mounted volume) and refused when they leave
 * it: a link to /etc or to a mounted secret is a mistake or an attack. Each link is resolved
 * once and files are read from the resolved paths with O_NOFOLLOW, checked on the open
 * descriptor. After reading, every link is resolved again: if one moved (a swap happened during
 * the read), the whole bundle is read again, so one result never mixes two revisions.
 *
 * Kubernetes' own `..`-prefixed entries and `.git` are not part of a bundle. Special files,
 * oversized files and oversized trees are problems: a bundle is a small directory of text.
 */
import { constants } from "node:fs";
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as path from "node:path";

export const MAX_FILE_BYTES = 1024 * 1024;
export const MAX_FILES = 1000;
const MAX_DEPTH = 16;
/** Reads of a bundle whose links keep moving; git-sync and the kubelet swap once per update. */
const MAX_ATTEMPTS = 5;
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW;

export interface BundleFile {
  /** POSIX path relative to the bundle directory, e.g. `tests/limits.yaml`. */
  path: string;
  bytes: Buffer;
}

/** Files in one order whatever the file system listed: by path, compared as UTF-8 bytes. */
export function canonicalOrder<T extends { path: string }>(files: readonly T[]): T[] {
  return [...files].sort((a, b) => Buffer.compare(Buffer.from(a.path, "utf8"), Buffer.from(b.path, "utf8")));
}

export interface FileProblem {
  /** Relative path, or `.` for the directory itself. */
  file: string;
  message: string;
}

export interface BundleFiles {
  files: BundleFile[];
  problems: FileProblem[];
}

export interface ReadOptions {
  /** Symbolic links must resolve inside this directory; default: the bundle directory's real path. */
  root?: string | undefined;
}

// The walk is written once as a generator of file-system operations; a synchronous and an
// asynchronous driver perform them (the CLI may block, the service must not).
type Kind = "dir" | "file" | "link" | "other";
export type BundleFsOp = { op: "realpath"; path: string } | { op: "kind"; path: string } | { op: "list"; path: string } | { op: "read"; path: string };
type Op = BundleFsOp;
export type Done<T> = { ok: true; value: T } | { ok: false; code: string };
/** Performs one operation of the walk; tests wrap the default to act between two reads. */
export type BundleFs = (op: BundleFsOp) => Promise<Done<unknown>>;
type Entry = { name: string; kind: Kind };
type Read = { bytes: Buffer } | { problem: string };
type Walk<T> = Generator<Op, T, unknown>;

function kindOf(stat: fs.Stats | fs.Dirent): Kind {
  if (stat.isSymbolicLink()) return "link";
  if (stat.isDirectory()) return "dir";
  if (stat.isFile()) return "file";
  return "other";
}

function checkOpened(stat: fs.Stats): string | null {
  if (!stat.isFile()) return "not a regular file";
  if (stat.size > MAX_FILE_BYTES) return `file is ${stat.size} bytes; a bundle file may be at most ${MAX_FILE_BYTES} bytes`;
  return null;
}

function failure(error: unknown): Done<never> {
  return { ok: false, code: (error as NodeJS.ErrnoException).code ?? "error" };
}

function performSync(op: Op): Done<unknown> {
  try {
    switch (op.op) {
      case "realpath":
        return { ok: true, value: fs.realpathSync.native(op.path) };
      case "kind":
        return { ok: true, value: kindOf(fs.statSync(op.path)) };
      case "list":
        return { ok: true, value: fs.readdirSync(op.path, { withFileTypes: true }).map((d) => ({ name: d.name, kind: kindOf(d) })) };
      case "read": {
        const fd = fs.openSync(op.path, OPEN_FLAGS);
        try {
          const problem = checkOpened(fs.fstatSync(fd));
          return { ok: true, value: problem ? { problem } : { bytes: fs.readFileSync(fd) } };
        } finally {
          fs.closeSync(fd);
        }
      }
    }
  } catch (error) {
    return failure(error);
  }
}

export async function performAsync(op: Op): Promise<Done<unknown>> {
  try {
    switch (op.op) {
      case "realpath":
        return { ok: true, value: await fsp.realpath(op.path) };
      case "kind":
        return { ok: true, value: kindOf(await fsp.stat(op.path)) };
      case "list":
        return { ok: true, value: (await fsp.readdir(op.path, { withFileTypes: true })).map((d) => ({ name: d.name, kind: kindOf(d) })) };
      case "read": {
        const handle = await fsp.open(op.path, OPEN_FLAGS);
        try {
          const problem = checkOpened(await handle.stat());
          return { ok: true, value: problem ? { problem } : { bytes: await handle.readFile() } };
        } finally {
          await handle.close();
        }
      }
    }
  } catch (error) {
    return failure(error);
  }
}

function runSync<T>(walk: Walk<T>): T {
  let step = walk.next();
  while (!step.done) step = walk.next(performSync(step.value));
  return step.value;
}

async function runAsync<T>(walk: Walk<T>, perform: BundleFs): Promise<T> {
  let step = walk.next();
  while (!step.done) step = walk.next(await perform(step.value));
  return step.value;
}

function* perform<T>(op: Op): Walk<Done<T>> {
  return (yield op) as Done<T>;
}

/** Kubernetes' atomic-writer entries (`..data`, `..2026_11_22_...`) and git metadata. */
function outsideBundle(name: string): boolean {
  return name.startsWith("..") || name === ".git";
}

function inside(root: string, target: string): boolean {
  return target === root || target.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

function relative(parent: string, name: string): string {
  return parent === "" ? name : `${parent}/${name}`;
}

class Snapshot {
  readonly files: BundleFile[] = [];
  readonly problems: FileProblem[] = [];
  /** Every link followed (including the bundle path itself) and where it led. */
  readonly links = new Map<string, string>();
  constructor(readonly root: string) {}
  problem(file: string, message: string): void {
    this.problems.push({ file, message });
  }
  full(): boolean {
    return this.files.length >= MAX_FILES;
  }
}

/** `real` is a resolved directory; `ancestors` are the resolved directories above it (link loops). */
function* walkDir(real: string, rel: string, depth: number, ancestors: ReadonlySet<string>, out: Snapshot): Walk<void> {
  if (depth > MAX_DEPTH) return out.problem(rel, `directories nested deeper than ${MAX_DEPTH} levels`);
  const listed = yield* perform<Entry[]>({ op: "list", path: real });
  if (!listed.ok) return out.problem(rel === "" ? "." : rel, `cannot read directory (${listed.code})`);
  const below = new Set(ancestors).add(real);
  for (const entry of listed.value) {
    if (outsideBundle(entry.name)) continue;
    const child = relative(rel, entry.name);
    if (out.full()) return out.problem(child, `a policy bundle may hold at most ${MAX_FILES} files`);
    yield* visit(path.join(real, entry.name), entry.kind, child, depth, below, out);
  }
}

function* visit(absolute: string, kind: Kind, rel: string, depth: number, ancestors: ReadonlySet<string>, out: Snapshot): Walk<void> {
  if (kind === "link") return yield* followLink(absolute, rel, depth, ancestors, out);
  if (kind === "dir") return yield* walkDir(absolute, rel, depth + 1, ancestors, out);
  if (kind === "other") return out.problem(rel, "only regular files and directories are allowed in a policy bundle");
  const read = yield* perform<Read>({ op: "read", path: absolute });
  if (!read.ok) return out.problem(rel, read.code === "ELOOP" ? "became a symbolic link while the bundle was read" : `cannot read (${read.code})`);
  if ("problem" in read.value) return out.problem(rel, read.value.problem);
  out.files.push({ path: rel, bytes: read.value.bytes });
}

function* followLink(link: string, rel: string, depth: number, ancestors: ReadonlySet<string>, out: Snapshot): Walk<void> {
  const target = yield* perform<string>({ op: "realpath", path: link });
  if (!target.ok) {
    return out.problem(rel, target.code === "ENOENT" ? "symbolic link to nothing" : `cannot resolve symbolic link (${target.code})`);
  }
  if (!inside(out.root, target.value)) return out.problem(rel, `symbolic link leaves the policy root ${out.root}`);
  out.links.set(link, target.value);
  if (ancestors.has(target.value)) return out.problem(rel, "symbolic link loop");
  const kind = yield* perform<Kind>({ op: "kind", path: target.value });
  if (!kind.ok) return out.problem(rel, `cannot read (${kind.code})`);
  yield* visit(target.value, kind.value, rel, depth, ancestors, out);
}

function rootProblem(dir: string, code: string): FileProblem {
  const message = code === "ENOENT" ? `bundle directory ${dir} does not exist` : code === "ENOTDIR" ? `${dir} is not a directory` : `cannot read bundle directory ${dir} (${code})`;
  return { file: ".", message };
}

function* readOnce(dir: string, options: ReadOptions): Walk<Snapshot | FileProblem> {
  const resolved = yield* perform<string>({ op: "realpath", path: dir });
  if (!resolved.ok) return rootProblem(dir, resolved.code);
  const kind = yield* perform<Kind>({ op: "kind", path: resolved.value });
  if (kind.ok && kind.value !== "dir") return rootProblem(dir, "ENOTDIR");
  let root = resolved.value;
  if (options.root !== undefined) {
    const configured = yield* perform<string>({ op: "realpath", path: options.root });
    if (!configured.ok) return { file: ".", message: `policy root ${options.root} cannot be resolved (${configured.code})` };
    root = configured.value;
    if (!inside(root, resolved.value)) return { file: ".", message: `bundle directory ${dir} resolves outside the policy root ${options.root}` };
  }
  const out = new Snapshot(root);
  out.links.set(dir, resolved.value);
  yield* walkDir(resolved.value, "", 0, new Set(), out);
  return out;
}

/** True when some link no longer leads where it led during the read. */
function* moved(links: ReadonlyMap<string, string>): Walk<boolean> {
  for (const [link, target] of links) {
    const now = yield* perform<string>({ op: "realpath", path: link });
    if (!now.ok || now.value !== target) return true;
  }
  return false;
}

function* readConsistent(dir: string, options: ReadOptions): Walk<BundleFiles> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const snapshot = yield* readOnce(dir, options);
    if (!(snapshot instanceof Snapshot)) return { files: [], problems: [snapshot] };
    if (!(yield* moved(snapshot.links))) return { files: canonicalOrder(snapshot.files), problems: snapshot.problems };
  }
  return { files: [], problems: [{ file: ".", message: `the bundle kept changing while it was read (${MAX_ATTEMPTS} attempts)` }] };
}

export function readBundleFiles(dir: string, options: ReadOptions = {}, perform: BundleFs = performAsync): Promise<BundleFiles> {
  return runAsync(readConsistent(dir, options), perform);
}

export function readBundleFilesSync(dir: string, options: ReadOptions = {}): BundleFiles {
  return runSync(readConsistent(dir, options));
}
