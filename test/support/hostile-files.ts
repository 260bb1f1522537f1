// Hostile documents, generated (never committed): each one defeated a parser that had no hard
// bound (quadratic time, unbounded memory). Shared by the hostile-bot tests and the ingest bench.
import { createDeflate } from "node:zlib";

/** A minimal valid PDF: one short line of text per page, pages in one flat page tree. */
export function manyPagePdf(pages: number): Buffer {
  const objects: string[] = [];
  const kids: string[] = [];
  // 1: catalog, 2: pages, 3: font; then per page a page object and its content stream.
  for (let i = 0; i < pages; i++) {
    const pageObj = 4 + i * 2;
    kids.push(`${pageObj} 0 R`);
    const text = `BT /F1 12 Tf 72 720 Td (Page ${i + 1} of the long report) Tj ET`;
    objects[pageObj] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageObj + 1} 0 R >>`;
    objects[pageObj + 1] = `<< /Length ${text.length} >>\nstream\n${text}\nendstream`;
  }
  objects[1] = "<< /Type /Catalog /Pages 2 0 R >>";
  objects[2] = `<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${pages} >>`;
  objects[3] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
  return assemblePdf(objects.map((o) => (o === undefined ? undefined : Buffer.from(o, "latin1"))));
}

/**
 * A one-page PDF whose content stream inflates from a few hundred KB to `inflatedMb` MB of
 * blanks: what a parser holds in typed arrays, outside any JS heap limit.
 */
export async function deflateBombPdf(inflatedMb: number): Promise<Buffer> {
  const compressed = await deflateBlanks(inflatedMb * 1024 * 1024);
  const head = Buffer.from(`<< /Length ${compressed.length} /Filter /FlateDecode >>\nstream\n`, "latin1");
  const tail = Buffer.from("\nendstream", "latin1");
  return assemblePdf([
    undefined,
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>", "latin1"),
    Buffer.from("<< /Type /Pages /Kids [4 0 R] /Count 1 >>", "latin1"),
    Buffer.from("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", "latin1"),
    Buffer.from(
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>",
      "latin1",
    ),
    Buffer.concat([head, compressed, tail]),
  ]);
}

function deflateBlanks(bytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const deflate = createDeflate({ level: 9 });
    const chunks: Buffer[] = [];
    deflate.on("data", (c: Buffer) => chunks.push(c));
    deflate.on("end", () => resolve(Buffer.concat(chunks)));
    deflate.on("error", reject);
    const block = Buffer.alloc(1024 * 1024, 0x20);
    let left = bytes;
    const write = () => {
      while (left > 0) {
        left -= block.length;
        if (!deflate.write(block)) {
          deflate.once("drain", write);
          return;
        }
      }
      deflate.end();
    };
    write();
  });
}

function assemblePdf(objects: (Buffer | undefined)[]): Buffer {
  const parts: Buffer[] = [Buffer.from("%PDF-1.4\n", "latin1")];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  for (let n = 1; n < objects.length; n++) {
    const body = objects[n]!;
    offsets[n] = offset;
    const chunk = Buffer.concat([
      Buffer.from(`${n} 0 obj\n`, "latin1"),
      body,
      Buffer.from("\nendobj\n", "latin1"),
    ]);
    parts.push(chunk);
    offset += chunk.length;
  }
  const xref = [`xref\n0 ${objects.length}\n`, "0000000000 65535 f \n"];
  for (let n = 1; n < objects.length; n++) xref.push(`${String(offsets[n]).padStart(10, "0")} 00000 n \n`);
  xref.push(`trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`);
  parts.push(Buffer.from(xref.join(""), "latin1"));
  return Buffer.concat(parts);
}

/** The Markdown and HTML inputs whose parse time grows with the square of their size. */
export const hostileText = {
  /** Emphasis openers that never match: `*_` × n, a letter, `_*` × n. */
  emphasis: (pairs = 50_000) => `${"*_".repeat(pairs)}x${"_*".repeat(pairs)}`,
  /** Link openers that never close. */
  brackets: (n = 100_000) => "[".repeat(n),
  /** A list nested `levels` deep by indentation alone (one marker per line). */
  indentedList: (levels = 3_000) =>
    Array.from({ length: levels }, (_, i) => `${" ".repeat(i * 2)}- level ${i}`).join("\n"),
  /** Tags that are opened and never closed. */
  unclosedHtml: (n = 100_000) => `<html><body>${"<div><span><b>".repeat(n)}text</body></html>`,
};
