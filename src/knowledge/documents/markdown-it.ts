// markdown-it for the Markdown loader: the copy scripts/vendor-markdown-it.mjs writes at build
// time (the package's own CommonJS build with its class fields set by plain assignment, several
// times faster to parse with; that script says why), else the package as published (a build
// that skipped the script). Both are markdown-it, of the installed version: the same tokens.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type MarkdownItPackage from "markdown-it";

const VENDORED = fileURLToPath(new URL("../../../vendor/markdown-it/markdown-it.cjs", import.meta.url));

function loadMarkdownIt(): typeof MarkdownItPackage {
  const require = createRequire(import.meta.url);
  try {
    return require(VENDORED) as typeof MarkdownItPackage;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw error;
    return require("markdown-it") as typeof MarkdownItPackage;
  }
}

export const MarkdownIt = loadMarkdownIt();
