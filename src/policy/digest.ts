/**
 * The bundle digest recorded with every decision: SHA-256 (hex) over the files in canonical order
 * (sorted by the UTF-8 bytes of their relative POSIX path, whatever order they are given in). For each file it hashes the
 * path, a NUL, the byte length in decimal, a NUL, then the bytes. A path holds no NUL and the
 * length delimits the content, so renames, moves and content changes all change the digest.
 */
import { createHash } from "node:crypto";
import { canonicalOrder, type BundleFile } from "./bundle-files.js";

const NUL = Buffer.from([0]);

export function bundleDigest(files: readonly BundleFile[]): string {
  const hash = createHash("sha256");
  for (const file of canonicalOrder(files)) {
    hash.update(Buffer.from(file.path, "utf8"));
    hash.update(NUL);
    hash.update(String(file.bytes.length));
    hash.update(NUL);
    hash.update(file.bytes);
  }
  return hash.digest("hex");
}
