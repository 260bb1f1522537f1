#!/usr/bin/env node
// Writes vendor/eld/eld-small.cjs: eld's "small" detector (its static entry, eld/small) as one
// CommonJS file whose n-gram table is one sorted string, looked up in place
// (scripts/eld-sorted-table.mjs), rather than the package's object literal of 81,206 keys. Every
// process or parser thread that detects a language builds that table first: a search whose
// question could be in another language, an index of an "auto" collection (each parser thread),
// the sample an unset language is decided on. Built from the literal it took 0.4 s, from JSON
// 0.1 s and 50 MiB; the string costs neither. The language detector
// (src/knowledge/analysis/detect.ts) loads this copy, else the package as published (a build that
// skipped this script). Every key of the package's table is checked to read the same from the
// copy's before it is written. `npm run build` and `prepare` run this; the copy is a build output
// (.gitignore), like dist/.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { sortedTable, tableText } from "./eld-sorted-table.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// Another folder may be named (the test that compares the copy with the package writes one).
const target = process.argv[2] ?? join(root, "vendor/eld");
const require = createRequire(join(root, "package.json"));
// eld exports ES modules only (no "require" condition): resolved as an import.
const source = join(dirname(fileURLToPath(import.meta.resolve("eld/small"))), "../..");
const { version, license } = JSON.parse(readFileSync(join(source, "package.json"), "utf8"));

const skip = (why) => {
  process.stderr.write(`second-look: ${why}; vendor/eld not written (the package is used as published)\n`);
  process.exit(0);
};

let esbuild;
try {
  esbuild = require("esbuild");
} catch {
  skip("esbuild (a dev dependency) is not installed");
}

const SORTED_TABLE = join(root, "scripts/eld-sorted-table.mjs");

/** Whether the copy's table reads as the package's: the same fields, every key's scores, no key more. */
function readsTheSame(copy, original) {
  const { ngrams, ...fields } = original;
  const { ngrams: copied, ...copiedFields } = copy;
  if (!isDeepStrictEqual(copiedFields, fields)) return false;
  const keys = Object.keys(ngrams);
  if (!isDeepStrictEqual(Object.keys(copied).sort(), [...keys].sort())) return false;
  return (
    keys.every((key) => isDeepStrictEqual({ ...copied[key] }, ngrams[key])) &&
    copied["\u0000absent"] === undefined
  );
}

let rewritten = 0;
const ngramsAsSortedText = {
  name: "ngrams-as-sorted-text",
  setup(build) {
    build.onLoad({ filter: /[\\/]eld[\\/]src[\\/]ngrams[\\/][^\\/]+\.js$/ }, async (args) => {
      const { ngramsData, ...rest } = await import(pathToFileURL(args.path).href);
      // A data file that holds more than the table, or a table of another shape, is not ours to rewrite.
      if (Object.keys(rest).length > 0 || typeof ngramsData?.ngrams !== "object") return undefined;
      const { ngrams, ...fields } = ngramsData;
      const text = tableText(ngrams);
      if (!readsTheSame({ ...JSON.parse(JSON.stringify(fields)), ngrams: sortedTable(text) }, ngramsData)) {
        return undefined;
      }
      rewritten++;
      return {
        contents: [
          `import { sortedTable } from ${JSON.stringify(SORTED_TABLE)};`,
          `export const ngramsData = { ...${JSON.stringify(fields)}, ngrams: sortedTable(${JSON.stringify(text)}) };`,
        ].join("\n"),
        loader: "js",
        resolveDir: root,
      };
    });
  },
};

rmSync(target, { recursive: true, force: true });
const built = await esbuild.build({
  stdin: { contents: 'export * from "eld/small";', resolveDir: root },
  bundle: true,
  write: false,
  format: "cjs",
  platform: "node",
  target: "node20",
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  legalComments: "none",
  logLevel: "warning",
  plugins: [ngramsAsSortedText],
});
if (rewritten !== 1) skip(`eld ${version} no longer holds its n-grams as expected`);
mkdirSync(target, { recursive: true });
writeFileSync(join(target, "eld-small.cjs"), built.outputFiles[0].contents);
writeFileSync(join(target, "LICENSE"), readFileSync(join(source, "LICENSE")));
writeFileSync(
  join(target, "package.json"),
  `${JSON.stringify({ name: "eld", version, license, private: true, type: "commonjs" }, null, 2)}\n`,
);
