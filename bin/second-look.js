#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm run build`, run on `prepare`;
// the packed tarball ships it), bundled into dist/cli-bundle/main.cjs so a command starts without
// loading hundreds of files (scripts/bundle-cli.mjs) and, from its second run, without compiling
// them (dist/cli/code-cache.js); dist/cli/ when a build had no bundler. A clone installed without
// dev dependencies has no dist/: say so in one line instead of a module-not-found stack.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const bundle = new URL("../dist/cli-bundle/main.cjs", import.meta.url);
const unbundled = new URL("../dist/cli/main.js", import.meta.url);
if (existsSync(bundle)) {
  import("../dist/cli/code-cache.js").then((m) =>
    m.runBundle(fileURLToPath(bundle), args[0]).exports.main(args),
  );
} else if (existsSync(unbundled)) {
  import(unbundled.href).then((m) => m.main(args));
} else {
  process.stderr.write(
    "second-look: dist/ is not built. In a clone, run `npm ci` (TypeScript, a dev dependency, builds it); " +
      "or install the packed package (`npm pack`), which ships dist/.\n",
  );
  process.exit(1);
}
