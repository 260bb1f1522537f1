#!/usr/bin/env node
// `npm install` / `npm ci` / `npm pack` run this (the `prepare` script). It compiles src/ into
// dist/ with TypeScript, which is a dev dependency. An install without dev dependencies
// (`npm ci --omit=dev`) has no TypeScript: then the install must still succeed, so this says
// what happened and how to get a working command, instead of failing the whole install.
// The packed tarball already contains dist/ (`npm pack` runs this with dev dependencies).
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { createRequire } from "node:module";

const root = new URL("..", import.meta.url);
const require = createRequire(new URL("package.json", root));

let tsc;
try {
  tsc = require.resolve("typescript/bin/tsc");
} catch {
  tsc = undefined;
}

if (tsc === undefined) {
  if (!existsSync(new URL("dist/cli/main.js", root))) {
    process.stderr.write(
      "second-look: TypeScript is not installed (dev dependencies omitted), so dist/ was not built.\n" +
        "  Run `npm ci` (with dev dependencies) once to build it, or install the packed package\n" +
        "  (`npm pack`, then `npm i ./second-look-<version>.tgz --omit=dev`), which ships dist/.\n",
    );
  }
  process.exit(0);
}

// A fresh dist/: files of an older build (source maps, modules since removed) would otherwise be packed.
rmSync(new URL("dist", root), { recursive: true, force: true });
const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
  cwd: root,
  stdio: "inherit",
});
if (result.status !== 0) process.exit(result.status ?? 1);
// The build's other outputs, each script saying why it exists, in the order `npm run build` runs them.
const STEPS = [
  "bundle-cli.mjs", // the CLI as one bundle, so a command starts without loading some 400 files
  "vendor-pdfjs.mjs", // the pdf.js build the PDF loader reads, shipped in the package
  "vendor-markdown-it.mjs", // markdown-it with its class fields set by plain assignment
  "vendor-eld.mjs", // eld's detector with its n-grams read as JSON
  "write-config-schema.mjs", // config.schema.json from the compiled zod schema
];
for (const step of STEPS) {
  const run = spawnSync(process.execPath, [new URL(step, import.meta.url).pathname], {
    cwd: root,
    stdio: "inherit",
  });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
