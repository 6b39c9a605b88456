// Compiles src/ and migrations/ into an output folder (default dist/) and copies the schema's SQL
// sources beside the compiled migrations, where src/db/sql-sources.ts finds them at run time.
// `npm run build`, the image's build stage and the production-install test all build through here.
import { cpSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.resolve(process.argv[2] ?? path.join(root, "dist"));
rmSync(out, { recursive: true, force: true });
execFileSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", path.join(root, "tsconfig.build.json"), "--outDir", out], { stdio: "inherit" });
for (const folder of ["baseline", "sql"]) cpSync(path.join(root, "migrations", folder), path.join(out, "migrations", folder), { recursive: true });
