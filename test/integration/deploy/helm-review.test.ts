/**
 * The chart runs human review: helm/countersign/examples/review.yaml renders an Ingress over TLS
 * that routes the review page and the review API and nothing else, the OpenID Connect settings,
 * reviewer tokens and notification hook from Secrets, the trusted proxy, and a NetworkPolicy rule
 * for the ingress controller; values the service would refuse, or that would leave reviewers
 * locked out, are refused at render.
 */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config.js";
import { openApiDocument } from "../../../src/http/openapi.js";
import { CHART, container, envOf, example, helm, type K8sObject, noHelmBecause, one, only, podEnvironment, render, runHelm, valuesFile } from "../../support/deploy/chart.js";

if (!helm) console.warn(`helm review tests skipped: no helm (${noHelmBecause})`);

/** Whether an Ingress path of this type routes `path` (Kubernetes: Prefix matches whole path elements). */
function routes(rule: K8sObject, path: string): boolean {
  if (rule.pathType === "Exact") return path === rule.path;
  return path === rule.path || path.startsWith(`${rule.path.replace(/\/$/, "")}/`);
}

/** The paths of the service's OpenAPI document a reviewer uses: the page, or an operation under reviewer security. */
function reviewPaths(): { review: string[]; other: string[] } {
  const paths = (openApiDocument() as { paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>> }).paths;
  const isReview = (p: string) => p === "/review" || p.startsWith("/review/") || Object.values(paths[p]!).some((op) => op.security?.some((s) => "reviewer" in s));
  const all = Object.keys(paths);
  return { review: all.filter(isReview), other: all.filter((p) => !isReview(p)) };
}

describe.skipIf(!helm)("the chart's review example (helm/countersign/examples/review.yaml)", () => {
  const objects = helm ? render([example("review.yaml")]) : [];
  const deployment = objects.find((o) => o.kind === "Deployment") ?? {};

  it("routes the review page and every review API path through the Ingress, and no other path of the service", () => {
    const rules = one(objects, "Ingress").spec.rules[0].http.paths as K8sObject[];
    const routed = (p: string) => rules.some((r) => routes(r, p.replace(/\{[^}]+\}/g, "x")));
    const { review, other } = reviewPaths();
    expect(review).toEqual(expect.arrayContaining(["/review", "/v1/reviews", "/v1/vaults/{vault}/transactions/{transaction}/review:approve"]));
    expect(review.filter((p) => !routed(p))).toEqual([]);
    expect(other).toEqual(expect.arrayContaining(["/v1/cosigner/webhook", "/v1/evaluate", "/v1/events", "/v1/policy"]));
    expect(other.filter(routed)).toEqual([]);
    for (const rule of rules) expect(rule.backend.service).toEqual({ name: "cs-countersign", port: { name: "http" } });
  });

  it("serves the Ingress over TLS for its host only, from the named Secret", () => {
    const spec = one(objects, "Ingress").spec;
    expect(spec.tls).toEqual([{ hosts: ["countersign.treasury.example"], secretName: "countersign-review-tls" }]);
    expect(spec.rules.map((r: K8sObject) => r.host)).toEqual(["countersign.treasury.example"]);
    expect(spec.ingressClassName).toBe("nginx");
  });

  it("takes the notification hook from a Secret and mounts the reviewer tokens from another as a file", () => {
    const c = container(deployment, "countersign")!;
    const env = envOf(c);
    expect(env.COUNTERSIGN_REVIEW_WEBHOOK_URL).toEqual({ secretKeyRef: { name: "countersign-review-hook", key: "review-webhook-url" } });
    expect(env.COUNTERSIGN_REVIEWER_TOKENS_FILE).toBe("/etc/countersign/reviewers/reviewers");
    const mount = (c.volumeMounts as K8sObject[]).find((m) => m.mountPath === "/etc/countersign/reviewers")!;
    expect(mount.readOnly).toBe(true);
    const volume = (deployment.spec.template.spec.volumes as K8sObject[]).find((v) => v.name === mount.name)!;
    expect(volume.secret).toMatchObject({ secretName: "countersign-reviewers", items: [{ key: "reviewers", path: "reviewers" }] });
    expect([env.COUNTERSIGN_OIDC_ISSUER, env.COUNTERSIGN_OIDC_AUDIENCE, env.COUNTERSIGN_OIDC_IDENTITY_CLAIM]).toEqual([
      "https://login.treasury.example/realms/treasury",
      "countersign",
      "email",
    ]);
    expect(env.COUNTERSIGN_TRUST_PROXY).toBe("10.0.0.0/8");
    expect(only(objects, "Secret")).toEqual([]);
  });

  it("gives the pod an environment the service starts with, reviewers and proxy included", () => {
    const config = loadConfig(podEnvironment(deployment));
    expect(config.review.oidc).toEqual({ issuer: "https://login.treasury.example/realms/treasury", audience: "countersign", identityClaim: "email" });
    expect(config.review.tokens.map((t) => t.identity)).toEqual(["alice@treasury.example"]);
    expect(config.review.webhookUrl).toMatch(/^https:\/\//);
    expect(config.trustProxy).toEqual(["10.0.0.0/8"]);
  });

  it("admits the ingress controller's pods, by namespace and labels, to the http port", () => {
    const ingress = one(objects, "NetworkPolicy").spec.ingress as K8sObject[];
    expect(ingress).toContainEqual({
      from: [
        { podSelector: { matchLabels: { "app.kubernetes.io/name": "ingress-nginx" } }, namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "ingress-nginx" } } },
      ],
      ports: [{ port: "http", protocol: "TCP" }],
    });
  });

  it("adds the extra volume, its mount and the variable naming it", () => {
    const c = container(deployment, "countersign")!;
    expect(deployment.spec.template.spec.volumes).toContainEqual({ name: "treasury-ca", configMap: { name: "treasury-ca" } });
    expect(c.volumeMounts).toContainEqual({ name: "treasury-ca", mountPath: "/etc/countersign/ca", readOnly: true });
    expect(envOf(c).NODE_EXTRA_CA_CERTS).toBe("/etc/countersign/ca/ca.crt");
  });

  it("without ingress, renders no Ingress and no rule for an ingress controller", () => {
    const plain = render([example("review.yaml")], ["ingress.enabled=false"]);
    expect(only(plain, "Ingress")).toEqual([]);
    expect(JSON.stringify(one(plain, "NetworkPolicy").spec)).not.toContain("ingress-nginx");
  });
});

describe.skipIf(!helm)("review values the chart refuses at render", () => {
  const reviewExample = helm ? example("review.yaml") : "";

  it.each([
    ["ingress without trustProxy (every form refused as cross-site behind TLS)", ["trustProxy="], /ingress\.enabled needs trustProxy/],
    ["ingress without a TLS Secret", ["ingress.tlsSecretName="], /ingress\.tlsSecretName is required/],
    ["ingress without a host", ["ingress.host="], /ingress\.host is required/],
    [
      "ingress with no way for a reviewer to sign in",
      ["review.oidc.issuer=", "review.oidc.audience=", "review.oidc.identityClaim=", "review.reviewerTokens.existingSecret="],
      /needs review\.oidc\.issuer or review\.reviewerTokens\.existingSecret/,
    ],
    [
      "ingress with a NetworkPolicy admitting no controller",
      ["networkPolicy.ingressController.podSelector=null", "networkPolicy.ingressController.namespaceSelector=null"],
      /needs networkPolicy\.ingressController/,
    ],
    ["an OIDC issuer without an audience", ["review.oidc.audience="], /review\.oidc\.audience is required/],
    ["an OIDC audience without an issuer", ["review.oidc.issuer=", "ingress.enabled=false"], /need review\.oidc\.issuer/],
    ["extraEnv setting a variable the chart sets", ["extraEnv[0].name=COUNTERSIGN_TRUST_PROXY", "extraEnv[0].value=loopback"], /extraEnv sets COUNTERSIGN_TRUST_PROXY/],
  ])("%s", (_what, set, refused) => {
    expect(() => render([reviewExample], set)).toThrow(refused);
  });

  it.each([
    ["an OIDC issuer over plain http", "review:\n  oidc:\n    issuer: http://login.treasury.example\n", /review\/oidc\/issuer/],
    ["an OIDC issuer with a password", "review:\n  oidc:\n    issuer: https://svc:s3cr3t@login.treasury.example\n", /review\/oidc\/issuer/],
    ["a trusted proxy that is no address", "trustProxy: everyone\n", /trustProxy/],
    ["a hop count of 0", 'trustProxy: "0"\n', /trustProxy/],
    ["an Ingress host that is no host name", "ingress:\n  host: https://countersign.example\n", /ingress\/host/],
    ["a volume mount without a path", "extraVolumeMounts:\n  - name: ca\n", /mountPath/],
  ])("refuses %s in lint and template", (_what, values, refused) => {
    const file = valuesFile(values);
    expect(() => runHelm(["lint", "--strict", CHART, "-f", file])).toThrow(refused);
    expect(() => render([file])).toThrow(refused);
  });

  it.each(["1", "10.0.0.0/8", "10.0.0.0/8, fd00::/8", "loopback,uniquelocal", "10.1.2.3"])("accepts trustProxy %s, which the service accepts", (value) => {
    const file = valuesFile(`trustProxy: "${value}"\n`);
    const deployment = one(render([file]), "Deployment");
    expect(() => loadConfig(podEnvironment(deployment))).not.toThrow();
    expect(envOf(container(deployment, "countersign")!).COUNTERSIGN_TRUST_PROXY).toBe(value);
  });
});
