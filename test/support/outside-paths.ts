/**
 * Paths in the repository's code that reach outside it: a clone with nothing beside it (a fork's
 * CI, a release tarball) must pass its tests, so no test, script or source file may read a folder
 * laid beside the checkout. Found from the code's own text, without running it:
 *
 * - a relative path anchored at the file (an import, `new URL(p, import.meta.url)`,
 *   `path.resolve(import.meta.dirname, p)`) that resolves above the repository;
 * - any other relative path that climbs (`../x`), taken from the repository root, where npm runs
 *   and where the ROOT and REPO constants point: the highest folder inside the repository it could
 *   start from. Only `..` segments (`path.join(dir, "..")`) name a parent of a folder, not a file,
 *   and a link's target is relative to the link, so neither is judged;
 * - an absolute path in the checkout's parent folder or under /work/ (this project's machines);
 * - the environment variable that pointed the tests at a shared folder beside the checkout.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export interface OutsidePath {
  /** Relative to the repository root. */
  file: string;
  line: number;
  text: string;
}

const SCANNED = ["src", "test", "scripts", "bench", "bin", ".ci"];
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;
const SHELL = /\.sh$/;
const OUTSIDE_ENV = new Set(["COUNTERSIGN_SHARED_DIR"]);
const CHECKOUT_ROOTS = ["/work/"];

/** Every file under the scanned folders that is code or a script (extensionless in bin/ and .ci/). */
export function scannedFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === "node_modules" ? [] : walk(full);
      const topLevel = path.relative(root, dir).split(path.sep)[0];
      const script = !entry.name.includes(".") && (topLevel === "bin" || topLevel === ".ci");
      return CODE.test(entry.name) || SHELL.test(entry.name) || script ? [full] : [];
    });
  return SCANNED.map((folder) => path.join(root, folder))
    .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    .flatMap(walk);
}

export function outsidePathsIn(root: string, except: readonly string[] = []): OutsidePath[] {
  return scannedFiles(root)
    .filter((file) => !except.includes(file))
    .flatMap((file) => outsidePaths(root, file, readFileSync(file, "utf8")));
}

/** The outside paths of one file's text. */
export function outsidePaths(root: string, file: string, text: string): OutsidePath[] {
  const check = new PathCheck(root, path.dirname(file));
  const found = CODE.test(file) ? codeFindings(check, file, text) : shellFindings(check, text);
  return found.map(({ line, text: literal }) => ({ file: path.relative(root, file), line, text: literal }));
}

class PathCheck {
  constructor(
    private readonly root: string,
    private readonly fileDir: string,
  ) {}

  outside(target: string): boolean {
    const relative = path.relative(this.root, target);
    return relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
  }

  anchoredAtFile(literal: string): boolean {
    return literal.startsWith(".") && this.outside(path.resolve(this.fileDir, literal));
  }

  unanchored(literal: string): boolean {
    const climbs = literal.startsWith("../") && !/^(\.\.\/?)+$/.test(literal);
    return climbs && this.outside(path.resolve(this.root, literal));
  }

  absolute(literal: string): boolean {
    const parent = `${path.dirname(this.root)}/`;
    const besideCheckout = literal.startsWith(parent) && this.outside(literal);
    return besideCheckout || CHECKOUT_ROOTS.some((prefix) => literal.startsWith(prefix));
  }
}

function codeFindings(check: PathCheck, file: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith("ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const found: { line: number; text: string }[] = [];
  const report = (node: ts.Node, literal: string): void => {
    found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: literal });
  };
  const visit = (node: ts.Node): void => {
    const literal = literalText(node);
    if (literal !== undefined && !isLinkTarget(node)) {
      const reaches = isAnchoredAtFile(node) ? check.anchoredAtFile(literal) : check.unanchored(literal);
      if (reaches || check.absolute(literal)) report(node, literal);
    }
    const envName = environmentName(node);
    if (envName !== undefined && OUTSIDE_ENV.has(envName)) report(node, envName);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateHead(node)) return node.text;
  return undefined;
}

/** An import's specifier, or a path resolved against the file's own folder or URL. */
function isAnchoredAtFile(node: ts.Node): boolean {
  const parent = node.parent;
  if (ts.isTemplateHead(node)) return isAnchoredAtFile(parent);
  if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isExternalModuleReference(parent)) return true;
  if (!ts.isCallExpression(parent) && !ts.isNewExpression(parent)) return false;
  if (parent.expression.kind === ts.SyntaxKind.ImportKeyword) return true;
  return (parent.arguments ?? []).some((argument) => /^(import\.meta\.(dirname|url|filename)|__dirname|__filename)$/.test(argument.getText()));
}

function isLinkTarget(node: ts.Node): boolean {
  const call = node.parent;
  return ts.isCallExpression(call) && call.arguments[0] === node && /\bsymlink(Sync)?$/.test(call.expression.getText());
}

/** `X` of `process.env.X` or `process.env["X"]`. */
function environmentName(node: ts.Node): string | undefined {
  if (ts.isPropertyAccessExpression(node) && node.expression.getText() === "process.env") return node.name.text;
  if (ts.isElementAccessExpression(node) && node.expression.getText() === "process.env") return literalText(node.argumentExpression);
  return undefined;
}

function shellFindings(check: PathCheck, text: string): { line: number; text: string }[] {
  const found: { line: number; text: string }[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.replace(/(^|\s)#.*$/, "");
    const words = line.match(/[^\s"'`;|&()<>=]+/g) ?? [];
    const envs = [...line.matchAll(/\$\{?([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1]!);
    for (const word of words) {
      if (check.unanchored(word) || check.absolute(word)) found.push({ line: index + 1, text: word });
    }
    for (const name of envs) if (OUTSIDE_ENV.has(name)) found.push({ line: index + 1, text: name });
  });
  return found;
}
