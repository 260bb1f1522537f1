#!/usr/bin/env node
// Writes vendor/eld/eld-small.cjs: eld's "small" detector (its static entry, eld/small) as one
// CommonJS file whose n-gram table is built by one JSON.parse of a string rather than by the
// package's object literal of 81,206 keys. V8 builds the same object from JSON about three times
// as fast (0.4 s → 0.13 s), and every process or parser thread that detects a language pays it
// once: a search whose question could be in another language, an index of an "auto" collection
// (each parser thread), the sample an unset language is decided on. The language detector
// (src/knowledge/analysis/detect.ts) loads this copy, else the package as published (a build that
// skipped this script). The parsed table is checked equal to the package's before it is written.
// `npm run build` and `prepare` run this; the copy is a build output (.gitignore), like dist/.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";

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

let rewritten = 0;
const ngramsAsJson = {
  name: "ngrams-as-json",
  setup(build) {
    build.onLoad({ filter: /[\\/]eld[\\/]src[\\/]ngrams[\\/][^\\/]+\.js$/ }, async (args) => {
      const { ngramsData, ...rest } = await import(pathToFileURL(args.path).href);
      const json = JSON.stringify(ngramsData);
      // A data file that holds more than the table, or anything JSON cannot carry, is not ours to rewrite.
      if (Object.keys(rest).length > 0 || !isDeepStrictEqual(JSON.parse(json), ngramsData)) return undefined;
      rewritten++;
      return { contents: `export const ngramsData = JSON.parse(${JSON.stringify(json)});`, loader: "js" };
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
  plugins: [ngramsAsJson],
});
if (rewritten !== 1) skip(`eld ${version} no longer holds its n-grams as expected`);
mkdirSync(target, { recursive: true });
writeFileSync(join(target, "eld-small.cjs"), built.outputFiles[0].contents);
writeFileSync(join(target, "LICENSE"), readFileSync(join(source, "LICENSE")));
writeFileSync(
  join(target, "package.json"),
  `${JSON.stringify({ name: "eld", version, license, private: true, type: "commonjs" }, null, 2)}\n`,
);
