#!/usr/bin/env node
// Writes vendor/markdown-it/markdown-it.cjs: markdown-it's own CommonJS build with its class
// fields set by plain assignment, which the Markdown loader (src/knowledge/documents/markdown-it.ts)
// loads in place of the package's. markdown-it 15 is published compiled with a helper that sets
// every class field through `_defineProperty(this, "name", value)` (a key conversion, an `in`
// test and a keyed store per field): a Token has eleven fields and the inline state twenty, and
// a Markdown page makes thousands of each, so parsing Node's API docs runs several times slower
// than the same code with `this.name = value`. Nothing else changes: the classes define no
// accessors, so the assignments make the same properties, with the same values, in the same order.
// `npm run build` and `prepare` run this; the copy is a build output (.gitignore), like dist/.
// Without it (a build that skipped it), the loader uses the package as published.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// Another folder may be named (the test that compares the copy with the package writes one).
const target = process.argv[2] ?? join(root, "vendor/markdown-it");
const source = dirname(createRequire(join(root, "package.json")).resolve("markdown-it/package.json"));
const { version, license } = JSON.parse(readFileSync(join(source, "package.json"), "utf8"));
const built = readFileSync(join(source, "dist/markdown-it.cjs.js"), "utf8");

// `_defineProperty(this, /** doc comment */ "name", value);` as the compiler writes a field.
const FIELD =
  /_defineProperty\(\s*this,\s*(?:\/\*\*[\s\S]*?\*\/\s*)?"([A-Za-z_$][\w$]*)",\s*([\s\S]*?)\s*\);/g;
let fields = 0;
const patched = built
  .replace(FIELD, (_field, name, value) => {
    fields++;
    return `this.${name} = ${value};`;
  })
  .replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");

rmSync(target, { recursive: true, force: true });
// A build whose fields are written otherwise is not ours to rewrite: no copy, the package is used.
if (fields === 0 || /_defineProperty\(\s*this\b/.test(patched)) {
  process.stderr.write(
    `second-look: markdown-it ${version} no longer sets its fields as expected; vendor/markdown-it not written (the package is used as published)\n`,
  );
  process.exit(0);
}
mkdirSync(target, { recursive: true });
writeFileSync(join(target, "markdown-it.cjs"), patched);
writeFileSync(join(target, "LICENSE"), readFileSync(join(source, "LICENSE")));
writeFileSync(
  join(target, "package.json"),
  `${JSON.stringify({ name: "markdown-it", version, license, private: true, type: "commonjs" }, null, 2)}\n`,
);
