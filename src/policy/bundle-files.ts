/**
 * Reading a bundle directory: every regular file, recursively, with its bytes. Files are opened
 * with O_NOFOLLOW and checked on the open descriptor, so what is hashed and parsed is exactly what
 * was checked. Symlinks, special files, oversized files and oversized trees are problems: a bundle
 * is a small directory of text, and anything else in it is a mistake or an attack.
 */
import { constants, type Dirent } from "node:fs";
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { canonicalOrder } from "./digest.js";

export const MAX_FILE_BYTES = 1024 * 1024;
export const MAX_FILES = 1000;
const MAX_DEPTH = 16;
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW;

export interface BundleFile {
  /** POSIX path relative to the bundle directory, e.g. `tests/limits.yaml`. */
  path: string;
  bytes: Buffer;
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

type Visit =
  | { kind: "dir" }
  | { kind: "file" }
  | { kind: "problem"; message: string };

/** What to do with a directory entry; never follows a symlink. */
function classify(entry: Dirent): Visit {
  if (entry.isSymbolicLink()) return { kind: "problem", message: "symbolic links are not allowed in a policy bundle" };
  if (entry.isDirectory()) return { kind: "dir" };
  if (entry.isFile()) return { kind: "file" };
  return { kind: "problem", message: "only regular files and directories are allowed in a policy bundle" };
}

function checkOpened(stat: fs.Stats): string | null {
  if (!stat.isFile()) return "not a regular file";
  if (stat.size > MAX_FILE_BYTES) return `file is ${stat.size} bytes; a bundle file may be at most ${MAX_FILE_BYTES} bytes`;
  return null;
}

function openProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ELOOP") return "symbolic links are not allowed in a policy bundle";
  return `cannot read (${code ?? "error"})`;
}

class Collector {
  readonly files: BundleFile[] = [];
  readonly problems: FileProblem[] = [];
  problem(file: string, message: string): void {
    this.problems.push({ file, message });
  }
  full(): boolean {
    return this.files.length >= MAX_FILES;
  }
}

function relative(parent: string, name: string): string {
  return parent === "" ? name : `${parent}/${name}`;
}

async function readFileAsync(absolute: string, rel: string, out: Collector): Promise<void> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(absolute, OPEN_FLAGS);
    const problem = checkOpened(await handle.stat());
    if (problem) return out.problem(rel, problem);
    out.files.push({ path: rel, bytes: await handle.readFile() });
  } catch (error) {
    out.problem(rel, openProblem(error));
  } finally {
    await handle?.close();
  }
}

async function walkAsync(root: string, rel: string, depth: number, out: Collector): Promise<void> {
  if (depth > MAX_DEPTH) return out.problem(rel, `directories nested deeper than ${MAX_DEPTH} levels`);
  const entries = await fsp.readdir(path.join(root, rel), { withFileTypes: true });
  for (const entry of entries) {
    const child = relative(rel, entry.name);
    if (out.full()) return out.problem(child, `a policy bundle may hold at most ${MAX_FILES} files`);
    const visit = classify(entry);
    if (visit.kind === "problem") out.problem(child, visit.message);
    else if (visit.kind === "dir") await walkAsync(root, child, depth + 1, out);
    else await readFileAsync(path.join(root, child), child, out);
  }
}

function readFileSyncChecked(absolute: string, rel: string, out: Collector): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(absolute, OPEN_FLAGS);
    const problem = checkOpened(fs.fstatSync(fd));
    if (problem) return out.problem(rel, problem);
    out.files.push({ path: rel, bytes: fs.readFileSync(fd) });
  } catch (error) {
    out.problem(rel, openProblem(error));
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function walkSync(root: string, rel: string, depth: number, out: Collector): void {
  if (depth > MAX_DEPTH) return out.problem(rel, `directories nested deeper than ${MAX_DEPTH} levels`);
  const entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
  for (const entry of entries) {
    const child = relative(rel, entry.name);
    if (out.full()) return out.problem(child, `a policy bundle may hold at most ${MAX_FILES} files`);
    const visit = classify(entry);
    if (visit.kind === "problem") out.problem(child, visit.message);
    else if (visit.kind === "dir") walkSync(root, child, depth + 1, out);
    else readFileSyncChecked(path.join(root, child), child, out);
  }
}

/** Canonical order: by the UTF-8 bytes of the relative path, independent of locale and platform. */
function canonical(out: Collector): BundleFiles {
  return { files: canonicalOrder(out.files), problems: out.problems };
}

function rootProblem(dir: string, error: unknown): BundleFiles {
  const code = (error as NodeJS.ErrnoException).code;
  const message = code === "ENOENT" ? `bundle directory ${dir} does not exist`
    : code === "ENOTDIR" ? `${dir} is not a directory`
    : `cannot read bundle directory ${dir} (${code ?? "error"})`;
  return { files: [], problems: [{ file: ".", message }] };
}

export async function readBundleFiles(dir: string): Promise<BundleFiles> {
  const out = new Collector();
  try {
    await walkAsync(dir, "", 0, out);
  } catch (error) {
    return rootProblem(dir, error);
  }
  return canonical(out);
}

export function readBundleFilesSync(dir: string): BundleFiles {
  const out = new Collector();
  try {
    walkSync(dir, "", 0, out);
  } catch (error) {
    return rootProblem(dir, error);
  }
  return canonical(out);
}
