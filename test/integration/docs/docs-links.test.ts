/**
 * Every relative link in the project's markdown resolves: the file exists, and a `#anchor` is a
 * heading of the target as GitHub names it. The README and docs/ link into one another by anchor,
 * so a heading renamed or a section moved to another page breaks a link nobody sees until a
 * reader follows it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const SKIPPED_DIRS = new Set(["node_modules", ".git", "dist", ".countersign"]);

/** Every markdown file of the repository, relative to its root. */
function markdownFiles(dir = ""): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : markdownFiles(relative);
    return entry.name.endsWith(".md") ? [relative] : [];
  });
}

/** The text outside fenced code blocks and inline code spans, where a link or heading is real. */
function prose(markdown: string): string[] {
  let fenced = false;
  return markdown.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line.replace(/`[^`]*`/g, (span) => " ".repeat(span.length));
  });
}

/** A heading's anchor as GitHub writes it: lower case, punctuation dropped, spaces as hyphens. */
function githubSlug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of a markdown file: one per heading, a repeated one numbered -1, -2, … */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = githubSlug(heading[1]!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

interface Link {
  file: string;
  line: number;
  target: string;
}

/** Relative links of a file: inline `[text](target)` and reference definitions `[label]: target`. */
function relativeLinks(file: string): Link[] {
  const lines = prose(readFileSync(path.join(ROOT, file), "utf8"));
  return lines.flatMap((text, index) => {
    const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
    const reference = [...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/g)].map((m) => m[1]!);
    return [...inline, ...reference].filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target)).map((target) => ({ file, line: index + 1, target }));
  });
}

/** Why a link does not resolve, or null when it does. */
function brokenReason({ file, target }: Link): string | null {
  const [pathPart, anchor] = target.split("#", 2) as [string, string | undefined];
  const resolved = pathPart === "" ? file : path.join(path.dirname(file), decodeURIComponent(pathPart));
  if (!existsSync(path.join(ROOT, resolved))) return `${resolved} does not exist`;
  if (anchor === undefined || !resolved.endsWith(".md")) return null;
  const known = anchors(readFileSync(path.join(ROOT, resolved), "utf8"));
  return known.has(decodeURIComponent(anchor)) ? null : `${resolved} has no heading #${anchor}`;
}

describe("links in the documentation", () => {
  const files = markdownFiles();
  const links = files.flatMap(relativeLinks);

  it("finds the README, the docs pages and their links", () => {
    expect(files).toContain("README.md");
    expect(files).toContain(path.join("docs", "ARCHITECTURE.md"));
    expect(links.filter((l) => l.target.includes("#")).length).toBeGreaterThan(20);
  });

  it("names GitHub's anchors for headings with code, punctuation and repeats", () => {
    expect(githubSlug("1. The co-signer webhook — `POST /v1/cosigner/webhook`")).toBe("1-the-co-signer-webhook--post-v1cosignerwebhook");
    expect(githubSlug("The ledger's layout and pruning")).toBe("the-ledgers-layout-and-pruning");
    expect([...anchors("# A\n## Notes\n```\n# not a heading\n```\n## Notes\n")]).toEqual(["a", "notes", "notes-1"]);
  });

  it("resolves every relative link and anchor", () => {
    const broken = links.flatMap((link) => {
      const reason = brokenReason(link);
      return reason ? [`${link.file}:${link.line} ${link.target}: ${reason}`] : [];
    });
    expect(broken).toEqual([]);
  });
});
