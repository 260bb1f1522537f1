#!/usr/bin/env node
// Bundles the compiled CLI (dist/cli/main.js) with esbuild into one CommonJS file,
// dist/cli-bundle/main.cjs, which bin/second-look.js runs through V8's code cache
// (src/cli/code-cache.ts). A cold `second-look search` otherwise spends most of its start in
// Node's module loader: resolving, reading and compiling some 400 files one by one (zod alone is
// 95). One file is read once, and from the second run of a command on it is not compiled at all:
// V8 takes the bytecode the first run left. CommonJS, because Node 20 gives a code cache to a
// script (vm.Script) and not to an ES module; subcommands stay lazy (esbuild evaluates each
// `import("./<command>.js")` on first use), though their text is in the one file.
//
// What stays outside the bundle, loaded from node_modules as before:
// - the peer dependencies (package.json `peerDependencies`): a user may not have them installed;
// - eld (1.6 MB of n-grams loaded on the first language detection): the detector loads the copy
//   scripts/vendor-eld.mjs writes (its n-grams as JSON), else the package, and only when a
//   command detects a language;
// - undici and the OTel SDK packages (loaded for model calls and tracing only): copying them would
//   only grow the package;
// - packages our code loads with createRequire (pino-pretty, snowball-stemmers): esbuild does
//   not follow those calls.
// The library entries (dist/index.js and the rest) are not bundled; nor is the parser thread
// (dist/knowledge/index/ingest-worker.js), which the pool starts by its file.
//
// Our modules locate files next to themselves (package.json, config.schema.json, the parser
// thread, vendor/pdfjs-dist) through `import.meta.url`; in the bundle that URL is the bundle's, so
// each module's `import.meta.url` is rewritten to the URL of its own file in dist/, which ships
// beside the bundle. `npm run build` and `prepare` run this after TypeScript.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const outdir = join(dist, "cli-bundle");

let esbuild;
try {
  esbuild = createRequire(join(root, "package.json"))("esbuild");
} catch {
  process.stderr.write(
    "second-look: esbuild (a dev dependency) is not installed, so dist/cli-bundle was not built;\n" +
      "  the command runs from dist/cli/ unbundled (slower to start).\n",
  );
  process.exit(0);
}

const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const external = [
  ...Object.keys(manifest.peerDependencies ?? {}),
  "eld",
  "undici",
  "@opentelemetry/sdk-trace-base",
  "@opentelemetry/resources",
].flatMap((name) => [name, `${name}/*`]);

/** Each of our modules' `import.meta.url` as the URL of its own file in dist/. */
const ownLocation = {
  name: "own-location",
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(dist + sep)) return undefined;
      const text = readFileSync(args.path, "utf8");
      if (!text.includes("import.meta.url")) return undefined;
      const own = relative(outdir, args.path).split(sep).join("/");
      return {
        contents: text.replaceAll("import.meta.url", `new URL(${JSON.stringify(own)}, import.meta.url).href`),
        loader: "js",
      };
    });
  },
};

/**
 * Two packages load at start-up what only a path we never take uses; each such require is taken
 * out of the bundled copy (a package whose text no longer matches is left as it is, and said):
 * - fdir (tinyglobby's walker) requires picomatch from node_modules for its own `.glob()`, which
 *   tinyglobby never calls (it matches with the picomatch bundled here): a second, CommonJS copy
 *   resolved and compiled on every command that lists files;
 * - commander requires node:child_process (and with it net, dgram, …) for executable
 *   subcommands, which this CLI does not have; it is required on the first spawn instead.
 */
const STARTUP_REQUIRES = [
  {
    file: /[\\/]fdir[\\/]dist[\\/]index\.mjs$/,
    eager: /__require\.resolve\("picomatch"\);\s*pm = __require\("picomatch"\);/,
    instead: "",
  },
  {
    file: /[\\/]commander[\\/]lib[\\/]command\.js$/,
    eager: /const childProcess = require\('node:child_process'\);/,
    instead: "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
  },
];

const withoutStartupRequires = {
  name: "without-startup-requires",
  setup(build) {
    for (const { file, eager, instead } of STARTUP_REQUIRES) {
      build.onLoad({ filter: file }, (args) => {
        const text = readFileSync(args.path, "utf8");
        if (!eager.test(text)) {
          process.stderr.write(`bundle-cli: ${args.path} no longer reads as expected; bundled as it is\n`);
          return undefined;
        }
        return { contents: text.replace(eager, instead), loader: "js" };
      });
    }
  },
};

// A fresh folder, so nothing of an earlier build is shipped.
rmSync(outdir, { recursive: true, force: true });
await esbuild.build({
  entryPoints: { main: join(dist, "cli", "main.js") },
  outdir,
  outExtension: { ".js": ".cjs" },
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  external,
  // stopword's builds hold all 62 languages' lists; its source modules let the bundle keep only
  // the ones the analyzers import.
  alias: { "stopword/dist/stopword.esm.mjs": "stopword/src/stopword.js" },
  plugins: [ownLocation, withoutStartupRequires],
  // Shorter text to parse at start-up; names are kept, so stack traces still name functions.
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  legalComments: "none",
  logLevel: "warning",
  // CommonJS has no import.meta: the bundle's own URL stands in for it (ownLocation above makes
  // each module's a URL relative to it).
  define: { "import.meta.url": "__secondLookBundleUrl" },
  banner: {
    js:
      'var __secondLookBundleUrl = require("node:url").pathToFileURL(__filename).href; ' +
      // The launcher passes its own import(): see DYNAMIC_IMPORT below.
      "var __secondLookImport = __secondLookImport ?? ((specifier) => import(specifier));",
  },
});

/**
 * The bundle's import() of the packages left outside it, each made a call of `__secondLookImport`:
 * in Node 20 a script compiled from V8's code cache loses its import() callback (nodejs/node#43663
 * and its kin), so code-cache.ts runs the bundle with an import() of its own, an ES module's, and
 * an import() the bundle makes itself would fail from the second run on. Only string specifiers
 * of packages are left as import() calls (our own modules are inside the bundle).
 */
const DYNAMIC_IMPORT = /\bimport\((["'])([^"'./][^"']*)\1\)/g;
const bundleFile = join(outdir, "main.cjs");
const bundled = readFileSync(bundleFile, "utf8");
const handed = bundled.replace(DYNAMIC_IMPORT, "__secondLookImport($1$2$1)");
const left = handed.match(/\bimport\((?!specifier\))[^$]/g);
if (left) {
  process.stderr.write(
    `bundle-cli: import() calls left in the bundle that the code cache would break: ${left.join(", ")}\n`,
  );
  process.exit(1);
}
writeFileSync(bundleFile, handed);
