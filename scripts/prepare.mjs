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
// The CLI as one bundle, so a command starts without loading some 400 files (scripts/bundle-cli.mjs says why).
const bundled = spawnSync(process.execPath, [new URL("bundle-cli.mjs", import.meta.url).pathname], {
  cwd: root,
  stdio: "inherit",
});
if (bundled.status !== 0) process.exit(bundled.status ?? 1);
// The pdf.js build the PDF loader reads, shipped in the package (scripts/vendor-pdfjs.mjs says why).
const vendored = spawnSync(process.execPath, [new URL("vendor-pdfjs.mjs", import.meta.url).pathname], {
  cwd: root,
  stdio: "inherit",
});
if (vendored.status !== 0) process.exit(vendored.status ?? 1);
// markdown-it with its class fields set by plain assignment (scripts/vendor-markdown-it.mjs says why).
const markdownIt = spawnSync(
  process.execPath,
  [new URL("vendor-markdown-it.mjs", import.meta.url).pathname],
  {
    cwd: root,
    stdio: "inherit",
  },
);
if (markdownIt.status !== 0) process.exit(markdownIt.status ?? 1);
// eld's detector with its n-grams read as JSON (scripts/vendor-eld.mjs says why).
const eld = spawnSync(process.execPath, [new URL("vendor-eld.mjs", import.meta.url).pathname], {
  cwd: root,
  stdio: "inherit",
});
if (eld.status !== 0) process.exit(eld.status ?? 1);
// config.schema.json from the compiled zod schema (scripts/write-config-schema.mjs says why).
const schema = spawnSync(process.execPath, [new URL("write-config-schema.mjs", import.meta.url).pathname], {
  cwd: root,
  stdio: "inherit",
});
process.exit(schema.status ?? 1);
