/**
 * pdf-words: how many of the words the product reads from a PDF are words of the same manual's
 * HTML edition. Debian ships some manuals both as a typeset PDF and as HTML (bzip2, fontconfig,
 * nettle, valgrind): the HTML has no line breaks of its own, so a PDF word the HTML never uses is
 * mostly a word broken for layout ("configura- tion"), or a running header, a page number, a
 * ligature left split. Both editions go through the product's loader (loadDocument); words are
 * runs of letters, lower-cased. Figures per manual: the PDF's words, the share the HTML edition
 * does not hold, and the line-end hyphens left ("configura- tion": a letter, a hyphen, a space or
 * a line break, a lower-case letter).
 *
 * Needs the Debian packages bzip2, fontconfig, nettle-dev and valgrind (their /usr/share/doc).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { loadDocument } from "../src/knowledge/documents/load-document.js";

export const name = "pdf-words";
export const timeoutMs = 10 * 60_000;

const DOC = "/usr/share/doc";
const MANUALS = [
  { manual: "bzip2", pdf: "bzip2/manual.pdf.gz", html: ["bzip2/manual.html"] },
  {
    manual: "fontconfig",
    pdf: "fontconfig/fontconfig-user.pdf.gz",
    html: ["fontconfig/fontconfig-user.html"],
  },
  { manual: "nettle", pdf: "nettle-dev/nettle.pdf.gz", html: ["nettle-dev/nettle.html"] },
  { manual: "valgrind", pdf: "valgrind/valgrind_manual.pdf.gz", html: ["valgrind/html"] },
];

const WORD = /\p{L}+/gu;
const LINE_END_HYPHEN = /\p{L}-[ \n]\p{Ll}/gu;

async function textOf(path: string, id: string): Promise<string> {
  const loaded = await loadDocument(path, id, {
    maxSectionChars: Number.POSITIVE_INFINITY,
    maxBytes: 50 * 1024 * 1024,
  });
  if (!loaded.ok) throw new Error(`${path}: ${loaded.reason}`);
  return loaded.doc.text;
}

function htmlFiles(path: string): string[] {
  if (path.endsWith(".html")) return [path];
  return readdirSync(path)
    .filter((f) => f.endsWith(".html"))
    .sort()
    .map((f) => join(path, f));
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const scratch = await mkdtemp(join(tmpdir(), "second-look-pdf-words-"));
  try {
    const rows = [];
    for (const m of MANUALS) {
      const pdfGz = join(DOC, m.pdf);
      const htmlPaths = m.html.map((h) => join(DOC, h));
      const missing = [pdfGz, ...htmlPaths].filter((p) => !existsSync(p));
      if (missing.length)
        throw new Error(`pdf-words needs ${missing.join(", ")} (install the Debian package ${m.manual})`);
      const pdf = join(scratch, `${m.manual}.pdf`);
      writeFileSync(pdf, gunzipSync(readFileSync(pdfGz)));
      const pdfText = await textOf(pdf, `${m.manual}.pdf`);
      const html = new Set<string>();
      for (const file of htmlPaths.flatMap(htmlFiles)) {
        for (const w of (await textOf(file, file)).matchAll(WORD)) html.add(w[0].toLowerCase());
      }
      const words = [...pdfText.matchAll(WORD)].map((w) => w[0].toLowerCase());
      const absent = words.filter((w) => !html.has(w)).length;
      rows.push({
        manual: m.manual,
        pdfWords: words.length,
        absentFromHtml: absent,
        absentShare: Math.round((10_000 * absent) / words.length) / 100,
        lineEndHyphens: pdfText.match(LINE_END_HYPHEN)?.length ?? 0,
      });
    }
    const markdown = [
      "Words the product reads from each PDF (loadDocument), against the words of the same manual's HTML edition.",
      "",
      "| manual | PDF words | not in the HTML edition | share | line-end hyphens left |",
      "|---|--:|--:|--:|--:|",
      ...rows.map(
        (r) =>
          `| ${r.manual} | ${r.pdfWords.toLocaleString("en-US")} | ${r.absentFromHtml.toLocaleString("en-US")} | ${r.absentShare} % | ${r.lineEndHyphens} |`,
      ),
    ].join("\n");
    const figures = {
      rows,
      pdfWords: rows.reduce((s, r) => s + r.pdfWords, 0),
      absentFromHtml: rows.reduce((s, r) => s + r.absentFromHtml, 0),
      lineEndHyphens: rows.reduce((s, r) => s + r.lineEndHyphens, 0),
    };
    return { title: "pdf-words: the words read from a PDF against its HTML edition", figures, markdown };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
