// Text formats compressed with gzip (`guide.rst.gz`, `page.html.gz`), as Debian ships the larger
// pages under /usr/share/doc: read as the format inside, bounded by the document limit once
// unpacked, and refused with a reason when broken.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  documentExtension,
  documentFormatFor,
  isGzipped,
} from "../../../src/knowledge/documents/document-format.js";
import { loadDocument, parseDocumentBytes } from "../../../src/knowledge/documents/load-document.js";
import { documentFolder, loaded, refusal } from "../../support/document-folder.js";

const { write } = documentFolder("second-look-gzip-");

describe("the format of a compressed document", () => {
  it("is the format inside for the text formats, and none for the rest", () => {
    expect(documentFormatFor("doc/guide.rst.gz")).toBe("rst");
    expect(documentFormatFor("doc/README.md.gz")).toBe("markdown");
    expect(documentFormatFor("doc/FAQ.TXT.GZ")).toBe("text");
    expect(documentFormatFor("doc/page.html.gz")).toBe("html");
    expect(documentFormatFor("_sources/intro.rst.txt.gz")).toBe("rst");
    // Compressed already, or not a document at all.
    expect(documentFormatFor("doc/manual.pdf.gz")).toBeUndefined();
    expect(documentFormatFor("doc/report.docx.gz")).toBeUndefined();
    expect(documentFormatFor("doc/changelog.Debian.gz")).toBeUndefined();
    expect(documentFormatFor("doc/NEWS.gz")).toBeUndefined();
    expect(documentFormatFor("doc/archive.gz")).toBeUndefined();
  });

  it("has the extension a glob of the collection is written from", () => {
    expect(documentExtension("a/guide.rst.gz")).toBe(".rst.gz");
    expect(documentExtension("a/intro.rst.txt")).toBe(".rst.txt");
    expect(documentExtension("a/intro.rst.txt.gz")).toBe(".rst.txt.gz");
    expect(documentExtension("a/README.MD")).toBe(".MD");
    expect(documentExtension("a/changelog.Debian.gz")).toBeUndefined();
    expect(isGzipped("a/page.html.gz")).toBe(true);
    expect(isGzipped("a/changelog.Debian.gz")).toBe(false);
    expect(isGzipped("a/page.html")).toBe(false);
  });
});

describe("loading a compressed document", () => {
  it("reads the format inside: sections, a title without either extension, a hash of the file's own bytes", async () => {
    const rst = "Upgrading\n=========\n\nRun the upgrade with the resolver's backtracking limit raised.\n";
    const path = await write("upgrade-notes.rst.gz", gzipSync(rst));
    const doc = loaded(await loadDocument(path, "doc/upgrade-notes.rst.gz"));
    expect(doc.id).toBe("doc/upgrade-notes.rst.gz");
    expect(doc.title).toBe("Upgrading");
    expect(doc.text).toContain("backtracking limit raised");
    expect(doc.contentHash).toBe(
      createHash("sha256")
        .update(await readFile(path))
        .digest("hex"),
    );

    const untitled = await write("release-checklist.md.gz", gzipSync("tag, build, sign, upload\n"));
    expect(loaded(await loadDocument(untitled, "release-checklist.md.gz")).title).toBe("release-checklist");
  });

  it("honours an HTML page's declared charset inside the compression", async () => {
    const html =
      '<html><head><meta charset="iso-8859-1"><title>R\xe9sum\xe9</title></head><body><p>Caf\xe9 cr\xe8me</p></body></html>';
    const path = await write("menu.html.gz", gzipSync(Buffer.from(html, "latin1")));
    const doc = loaded(await loadDocument(path, "menu.html.gz"));
    expect(doc.title).toBe("Résumé");
    expect(doc.text).toContain("Café crème");
  });

  it("reads a file of several gzip members whole, as gunzip does", async () => {
    const path = await write(
      "joined.md.gz",
      Buffer.concat([gzipSync("# Joined\n\nfirst member\n"), gzipSync("\nsecond member\n")]),
    );
    const doc = loaded(await loadDocument(path, "joined.md.gz"));
    expect(doc.text).toContain("first member");
    expect(doc.text).toContain("second member");
  });

  it("refuses what unpacks past the document limit, however small the file", async () => {
    // 16 KB of compressed letters unpack to 16 MB; the limit is on what is unpacked.
    const bomb = gzipSync(Buffer.alloc(16 * 1024 * 1024, "a"));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const path = await write("bomb.md.gz", bomb);
    expect(refusal(await loadDocument(path, "bomb.md.gz", { maxBytes: 1024 * 1024 }))).toBe(
      "file too large uncompressed (over the 1.0 MB limit)",
    );
  });

  it("refuses a broken or truncated file with the reason, never throwing", async () => {
    const notGzip = await write("plain.md.gz", "# not compressed at all\n");
    expect(refusal(await loadDocument(notGzip, "plain.md.gz"))).toMatch(/^not a readable gzip file: /);
    const whole = gzipSync("# Cut\n\nthis file was cut short in the middle of its stream\n".repeat(50));
    const cut = await write("cut.md.gz", whole.subarray(0, Math.floor(whole.length / 2)));
    expect(refusal(await loadDocument(cut, "cut.md.gz"))).toMatch(/^not a readable gzip file: /);
  });

  it("refuses binary content inside the compression as it refuses a binary file", async () => {
    const path = await write("image.txt.gz", gzipSync(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d])));
    expect(refusal(await loadDocument(path, "image.txt.gz"))).toMatch(/binary/);
  });

  it("parses bytes already read the same way (the path a refresh takes)", async () => {
    const bytes = gzipSync("# Pre-read\n\nparsed from bytes the refresh read\n");
    const doc = loaded(await parseDocumentBytes("/nowhere/pre-read.md.gz", "pre-read.md.gz", { bytes }));
    expect(doc.title).toBe("Pre-read");
  });
});
