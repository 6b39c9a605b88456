/**
 * The layers of src/ (docs/ARCHITECTURE.md#layers), checked by `npm run lint:deps` and by
 * test/integration/architecture/layers.test.ts. The pure core at the bottom, the I/O features and the database
 * above it, the wiring (service, main, the command line) at the top.
 */

/** What the service runs: unit tests and their helpers are left out, as the build leaves them out. */
const TEST_CODE = ["\\.test\\.ts$", "/__fixtures__/", "^src/core/transaction/test-(bodies|envelopes)\\.ts$", "^src/core/facts/test-views\\.ts$"];

/** Node built-ins the pure core may use: computation, never a file, socket, process or clock source. */
const PURE_NODE_MODULES = "^(node:)?(crypto|buffer|util)$";

/** Packages that reach a database, a socket, a log or a telemetry exporter. */
const IO_PACKAGES = ["^node_modules/(pg|pg-[^/]+|kysely|@electric-sql/pglite|express|pino|pino-[^/]+|commander|@opentelemetry/[^/]+)/"];

/** The audited codecs the chain families build their address spellings on. */
const CHAIN_CODEC_PACKAGES = "(^|/)node_modules/(@scure/base|ripple-address-codec|@stellar/stellar-base)/";

/** The top-level wiring: the only modules that may import the HTTP server. */
const WIRING = "^src/(service|main|cli|background)\\.ts$|^src/(cli|commands)/";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A cycle makes two modules one: neither can be read, tested or moved without the other.",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-circular-folders",
      severity: "error",
      comment: "Nor between folders: a folder that imports another which imports it back is not a layer.",
      scope: "folder",
      from: { path: "^src/([^/]+)" },
      to: { path: "^src/[^/]+", pathNot: "^src/$1(/|$)", circular: true },
    },
    {
      name: "core-imports-only-core",
      severity: "error",
      comment: "src/core/ is the pure core: it builds on nothing else in src/, which all builds on it.",
      from: { path: "^src/core/" },
      to: { path: "^src/", pathNot: "^src/core/" },
    },
    {
      name: "core-does-no-io",
      severity: "error",
      comment: "src/core/ takes the clock, the address book and the totals as arguments: no file, socket, database, log or telemetry.",
      from: { path: "^src/core/" },
      to: { dependencyTypes: ["core"], pathNot: PURE_NODE_MODULES },
    },
    {
      name: "core-uses-no-io-package",
      severity: "error",
      comment: "src/core/ imports no database client, HTTP framework, logger or telemetry.",
      from: { path: "^src/core/" },
      to: { path: IO_PACKAGES },
    },
    {
      name: "http-only-from-wiring",
      severity: "error",
      comment: "src/http/ is the edge: only the wiring at the top imports it; features are imported by it, never the reverse.",
      from: { path: "^src/", pathNot: ["^src/http/", WIRING] },
      to: { path: "^src/http/" },
    },
    {
      name: "db-knows-no-feature",
      severity: "error",
      comment: "src/db/ is connections, migrations and pipelining: the Database type is composed above it (src/database.ts).",
      from: { path: "^src/db/" },
      to: { path: "^src/[^/]+/", pathNot: "^src/(db|core)/" },
    },
    {
      name: "chains-own-their-codecs",
      severity: "error",
      comment: "A chain's address codecs are its family's knowledge: only src/core/chains/ reads them; everything else takes the canonical forms it emits.",
      from: { pathNot: "^src/core/chains/" },
      to: { path: CHAIN_CODEC_PACKAGES },
    },
    {
      name: "chain-families-through-the-registry",
      severity: "error",
      comment: "Outside src/core/chains/, a chain family is reached through the registry and its interface (src/core/chains/*.ts), never by its own folder.",
      from: { pathNot: "^src/core/chains/" },
      to: { path: "^src/core/chains/[^/]+/" },
    },
    {
      name: "no-orphans",
      severity: "error",
      comment: "A module nothing imports and that imports nothing is dead code or a forgotten entry point.",
      from: { orphan: true, pathNot: ["\\.d\\.ts$"] },
      to: {},
    },
    {
      name: "no-dev-dependencies",
      severity: "error",
      comment: "The production install has no devDependencies (npm ci --omit=dev).",
      from: { path: "^src/" },
      to: { dependencyTypes: ["npm-dev"] },
    },
    {
      name: "no-undeclared-packages",
      severity: "error",
      comment: "A package src/ imports must be a dependency in package.json.",
      from: { path: "^src/" },
      to: { dependencyTypes: ["npm-no-pkg", "npm-unknown", "unknown", "undetermined"] },
    },
  ],
  options: {
    exclude: { path: TEST_CODE },
    doNotFollow: { path: "node_modules" },
    tsConfig: { fileName: "tsconfig.json" },
    // Type-only imports are dependencies too: a pure module importing a type from an I/O module is a layer broken.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
    },
    skipAnalysisNotInRules: true,
  },
};
