// `npm run lint` runs this, then prettier --check (docs/development.md#lint-and-format).
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

const TESTS = ["test/**", "**/*.test.ts", "src/**/test-*.ts"];

export default defineConfig(
  { ignores: ["dist/", "coverage/", "test-artifacts/", ".countersign/", "helm/", "test/fixtures/"] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: { projectService: { allowDefaultProject: ["*.js", "bin/*.js", "bench/*.mjs", "scripts/*.mjs"] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A leading underscore names what is left out on purpose (a field dropped from a copy, a handler's unused argument).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true }],
      // An async function turns a throw into a rejection, which callers handle as one; dropping `async` would throw synchronously instead.
      "@typescript-eslint/require-await": "off",
      // json-logic-js hands an operation its data as `this`; a function walking that data keeps it in a variable like any value.
      "@typescript-eslint/no-this-alias": "off",
    },
  },
  {
    files: ["src/review/printable.ts"],
    // printable and readable show any value a transaction carries, as String() writes it, escaped.
    rules: { "@typescript-eslint/no-base-to-string": "off" },
  },
  {
    files: TESTS,
    rules: {
      // Tests read answers and fixtures as parsed JSON and check them with expect(), which is the type check there.
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      // Tests assert that control characters never reach a terminal, so their patterns name them.
      "no-control-regex": "off",
    },
  },
  // Plain JavaScript has no types for the type-aware rules to check.
  { files: ["**/*.js", "**/*.mjs", "**/*.cjs"], extends: [tseslint.configs.disableTypeChecked] },
);
