import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoadDocumentResult, loadDocument } from "../../../src/knowledge/documents/load-document.js";

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/documents/${name}`, import.meta.url));

function expectRejected(result: LoadDocumentResult, reason: RegExp) {
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.reason).toMatch(reason);
}

describe("loadDocument", () => {
  let dir: string;
  const write = async (name: string, content: string | Uint8Array) => {
    const path = join(dir, name);
    await writeFile(path, content);
    return path;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "second-look-documents-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("loads markdown with id, title, url, sections, whole text and a hash of the raw bytes", async () => {
    const path = fixture("leave-policy.md");
    const result = await loadDocument(path, "policies/leave-policy.md");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { doc } = result;
    expect(doc.id).toBe("policies/leave-policy.md");
    expect(doc.title).toBe("Annual Leave Policy");
    expect(doc.url).toBe("https://handbook.example.com/leave");
    expect(doc.modifiedTime).toBe("2025-01-15T00:00:00.000Z");
    expect(doc.sections.map((s) => s.heading)).toContain("Part-time staff");
    expect(doc.text).toContain("Leave at Acme\n\nAcme gives every employee 25 days");
    expect(doc.text).not.toContain("updated:");
    const { readFile } = await import("node:fs/promises");
    expect(doc.contentHash).toBe(
      createHash("sha256")
        .update(await readFile(path))
        .digest("hex"),
    );
  });

  it("dispatches .html and .txt to their loaders; a file that states no date has no modifiedTime", async () => {
    const html = await loadDocument(fixture("travel.html"), "travel.html");
    const text = await loadDocument(fixture("notes.txt"), "notes.txt");
    expect(html.ok && html.doc.title).toBe("Travel & Expenses");
    expect(text.ok && text.doc.title).toBe("Onboarding notes");
    // Not the file's mtime: in a fresh clone that is the clone's date, shown as "updated:".
    expect(text.ok && text.doc.modifiedTime).toBeUndefined();
  });

  it("loads an empty file and a front-matter-only file as documents without sections", async () => {
    const empty = await loadDocument(fixture("empty.md"), "empty.md");
    expect(
      empty.ok && { title: empty.doc.title, text: empty.doc.text, sections: empty.doc.sections },
    ).toEqual({
      title: "empty",
      text: "",
      sections: [],
    });
    const meta = await loadDocument(fixture("front-matter-only.md"), "front-matter-only.md");
    expect(meta.ok && [meta.doc.title, meta.doc.sections.length, meta.doc.text]).toEqual([
      "Only Metadata",
      0,
      "",
    ]);
  });

  it("strips a BOM and CRLF line endings before parsing", async () => {
    const path = await write(
      "crlf.md",
      Buffer.from("\uFEFF---\r\ntitle: Windows\r\n---\r\n# H\r\n\r\nline\r\n"),
    );
    const result = await loadDocument(path, "crlf.md");
    expect(result.ok && result.doc.title).toBe("Windows");
    expect(result.ok && result.doc.sections[0]?.content).toBe("line");
  });

  it("splits oversized sections into parts and keeps the whole text once", async () => {
    const long = Array.from({ length: 120 }, (_, i) => `Clause ${i} sets out one more rule.`).join(" ");
    const path = await write("long.md", `# Rules\n\n${long}\n`);
    const result = await loadDocument(path, "long.md", { maxSectionChars: 800 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.doc.sections.length).toBeGreaterThan(1);
    for (const s of result.doc.sections) {
      expect(s.heading).toBe("Rules");
      expect(s.content.length).toBeLessThanOrEqual(800);
    }
    expect(result.doc.sections.map((s) => s.content).join(" ")).toBe(long);
    expect(result.doc.text).toBe(`Rules\n\n${long}`);
  });

  it("rejects an unsupported file type", async () => {
    expectRejected(
      await loadDocument(await write("report.key", "PK"), "report.key"),
      /unsupported file type "\.key"/,
    );
    expectRejected(await loadDocument(await write("README", "x"), "README"), /unsupported file type/);
  });

  it("rejects a binary file", async () => {
    const path = await write(
      "image.md",
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]),
    );
    expectRejected(await loadDocument(path, "image.md"), /binary file/);
  });

  it("rejects a non-UTF-8 (Latin-1) file", async () => {
    const path = await write("latin1.txt", Buffer.from([0x48, 0x69, 0x20, 0xe6, 0xf8, 0xe5, 0x0a]));
    expectRejected(await loadDocument(path, "latin1.txt"), /not valid UTF-8/);
  });

  it("reads a text file Windows saved as windows-1252 in that encoding, and says it guessed", async () => {
    const text = "Größe der Datei prüfen, bevor sie geöffnet wird. Änderungen übernehmen und schließen.\n";
    const path = await write("notepad.txt", Buffer.from(text, "latin1"));
    const result = await loadDocument(path, "notepad.txt");
    expect(result.ok && [result.doc.text, result.doc.decodedAs]).toEqual([text.trim(), "windows-1252"]);
  });

  it("reads a UTF-8 file with a stray byte as UTF-8, that byte replaced, never as a legacy encoding", async () => {
    const utf8 =
      "Größe der Datei prüfen, bevor sie geöffnet wird. Über die Größe entscheidet die Geschäftsführung.\n";
    const bytes = Buffer.concat([Buffer.from(utf8), Buffer.from([0xe9]), Buffer.from(" café\n")]);
    const result = await loadDocument(await write("mixed.txt", bytes), "mixed.txt");
    expect(result.ok && [result.doc.text, result.doc.decodedAs]).toEqual([
      `${utf8}\uFFFD café`,
      "UTF-8 with 1 invalid byte sequence replaced",
    ]);
  });

  it("reads an HTML page that declares no encoding in the one it is recognised to be, else windows-1252", async () => {
    // "<html><head><title>設定</title>…<p>ファイルを開く前に、…</p>…" in Shift_JIS.
    const japanese =
      "PGh0bWw+PGhlYWQ+PHRpdGxlPpDdkug8L3RpdGxlPjwvaGVhZD48Ym9keT48cD6DdINAg0ODi4LwikqCrZFPgsmBQYNUg0ODWYLwim2URoK1gtyCt4FClc+NWILwlduRtoK3gumCyYLNgUGDdINAg0ODi4OBg2qDhYFbgqmC55XbkbaC8JFJkfCCtYLEgq2CvoKzgqKBQjwvcD48L2JvZHk+PC9odG1sPg==";
    const sjis = await loadDocument(await write("sjis.html", Buffer.from(japanese, "base64")), "sjis.html");
    expect(sjis.ok && [sjis.doc.title, sjis.doc.decodedAs]).toEqual(["設定", "shift_jis"]);
    // Too little text to be sure of any encoding: the HTML standard's default.
    const latin = await loadDocument(
      await write("short.html", Buffer.from("<p>Pokorn\xfd</p>", "latin1")),
      "short.html",
    );
    expect(latin.ok && [latin.doc.text, latin.doc.decodedAs]).toEqual(["Pokorný", "windows-1252"]);
  });

  it("reads an HTML page in the Latin-1 it declares", async () => {
    const page =
      '<html><head><meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1"><title>Gr\u00fc\u00dfe</title></head><body><p>bl\u00e5b\u00e6r \u0080 5</p></body></html>';
    const path = await write("latin1.html", Buffer.from(page, "latin1"));
    const result = await loadDocument(path, "latin1.html");
    expect(result.ok && [result.doc.title, result.doc.text]).toEqual(["Grüße", "blåbær € 5"]);
  });

  it("rejects an oversized file without parsing it", async () => {
    const path = await write("big.md", "a".repeat(2048));
    expectRejected(
      await loadDocument(path, "big.md", { maxBytes: 1024 }),
      /file too large \(2\.0 KB; limit 1\.0 KB\)/,
    );
    const atLimit = await loadDocument(path, "big.md", { maxBytes: 2048 });
    expect(atLimit.ok).toBe(true);
  });

  it("rejects pathologically nested markdown with a reason instead of parsing it for minutes", async () => {
    const path = await write("nested.md", `${"- ".repeat(20_000)}x\n`);
    const started = Date.now();
    expectRejected(
      await loadDocument(path, "nested.md"),
      /^markdown parser failed: lists\/quotes nested 20000 deep on line 1/,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("reports a missing file or a directory instead of throwing", async () => {
    expectRejected(await loadDocument(join(dir, "missing.md"), "missing.md"), /cannot read file/);
    const { mkdir } = await import("node:fs/promises");
    await mkdir(join(dir, "folder.md"));
    expectRejected(
      await loadDocument(join(dir, "folder.md"), "folder.md"),
      /not a regular file|cannot read file/,
    );
  });
});
