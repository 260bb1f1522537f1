#!/usr/bin/env node
// Copies the part of pdf.js that PDF text extraction uses into vendor/pdfjs-dist/, which the
// packed package ships (package.json "files"). pdfjs-dist itself is a dev dependency only: as a
// dependency it pulls @napi-rs/canvas (a 33 MB native build, an optionalDependency of
// pdfjs-dist that a consumer's install cannot leave out) and ships viewer, source-map and
// minified duplicates (41 MB) that text extraction never loads. What is copied is Mozilla's own
// Node build as published: legacy/build/pdf.mjs and the in-process worker pdf.worker.mjs it
// imports (less their source-map comments), and the data files read from disk (CMaps for CJK
// text, standard fonts, image decoders), with their licences. The PDF loader
// (src/knowledge/documents/pdf-loader.ts) loads it from there.
// `npm run build` and `prepare` run this; the copy is a build output (.gitignore), like dist/.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(root, "vendor/pdfjs-dist");

let source;
try {
  source = dirname(createRequire(join(root, "package.json")).resolve("pdfjs-dist/package.json"));
} catch {
  process.stderr.write(
    "second-look: pdfjs-dist (a dev dependency) is not installed, so vendor/pdfjs-dist was not copied;\n" +
      "  PDF files cannot be read until `npm ci` (with dev dependencies) has run.\n",
  );
  process.exit(0);
}

const { version, license } = JSON.parse(readFileSync(join(source, "package.json"), "utf8"));
const FILES = ["LICENSE", "legacy/build/pdf.mjs", "legacy/build/pdf.worker.mjs"];
const FOLDERS = ["cmaps", "standard_fonts", "wasm"];

rmSync(target, { recursive: true, force: true });
for (const file of FILES) {
  mkdirSync(dirname(join(target, file)), { recursive: true });
  cpSync(join(source, file), join(target, file));
}
// The source maps are not shipped (13 MB), so the lines pointing at them go too.
for (const file of FILES.filter((f) => f.endsWith(".mjs"))) {
  const path = join(target, file);
  writeFileSync(path, readFileSync(path, "utf8").replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n"));
}
for (const folder of FOLDERS) cpSync(join(source, folder), join(target, folder), { recursive: true });
// Names the copy; "type" keeps Node from looking further up for how to read the .mjs files.
writeFileSync(
  join(target, "package.json"),
  `${JSON.stringify({ name: "pdfjs-dist", version, license, private: true, type: "module" }, null, 2)}\n`,
);
if (!existsSync(join(target, "legacy/build/pdf.worker.mjs"))) {
  process.stderr.write("second-look: copying pdf.js into vendor/pdfjs-dist failed\n");
  process.exit(1);
}
