#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm run build`, run on `prepare`;
// the packed tarball ships it), bundled into dist/cli-bundle/ so a command starts without
// loading hundreds of files (scripts/bundle-cli.mjs); dist/cli/ when a build had no bundler. A
// clone installed without dev dependencies has no dist/: say so in one line instead of a
// module-not-found stack.
import { existsSync } from "node:fs";

const bundle = new URL("../dist/cli-bundle/main.js", import.meta.url);
const entry = existsSync(bundle) ? bundle : new URL("../dist/cli/main.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    "second-look: dist/ is not built. In a clone, run `npm ci` (TypeScript, a dev dependency, builds it); " +
      "or install the packed package (`npm pack`), which ships dist/.\n",
  );
  process.exit(1);
}
import(entry.href).then((m) => m.main(process.argv.slice(2)));
