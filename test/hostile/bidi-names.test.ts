// Issue 24, L8: a bidirectional override (U+202E) or isolate in a title, heading or file name
// would make a terminal, a chat client or a model's context show another name than the one
// there ("Invoice \u202Efdp.exe" shows as "Invoice exe.pdf"). Every such control reaches the
// text as a visible escape, and the escaped id a model copies still opens the document.
import { describe, expect, it } from "vitest";
import { terminalText } from "../../src/cli/terminal-text.js";
import { fetchNamedDocument, renderDocument } from "../../src/knowledge-tool/document.js";
import { renderSearchResponse } from "../../src/knowledge-tool/render.js";
import { extractDocKeys, renderDocIdLine } from "../../src/knowledge-tool/result-text.js";
import { hit, response } from "../knowledge-tool/builders.js";

const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
const SPOOFED_ID = "docs/Invoice \u202Efdp.exe";
const SPOOFED_TITLE = "Invoice \u2067\u202Efdp.exe\u2069 for review";

describe("bidirectional controls in names and titles", () => {
  it("never reach a rendered result raw, in both modes, and show as escapes", () => {
    for (const brief of [false, true]) {
      const text = renderSearchResponse(
        response({ results: [hit({ id: SPOOFED_ID, title: SPOOFED_TITLE, heading: "A \u202Dheading" })] }),
        { brief },
      );
      expect(BIDI.test(text), text).toBe(false);
      expect(text).toContain("Invoice \\u202efdp.exe");
      expect(extractDocKeys(text)).toEqual(["wiki/docs/Invoice \\u202efdp.exe"]);
    }
    expect(BIDI.test(renderDocIdLine({ collection: "wiki", id: SPOOFED_ID }))).toBe(false);
  });

  it("the escaped id a model copies opens the stored document", async () => {
    const stored = new Map([[SPOOFED_ID, "the file"]]);
    expect(await fetchNamedDocument(async (id) => stored.get(id), "docs/Invoice \\u202efdp.exe")).toBe(
      "the file",
    );
  });

  it("get_document's header and a terminal line show them escaped", () => {
    const text = renderDocument({ collection: "wiki", id: SPOOFED_ID, title: SPOOFED_TITLE, text: "body" });
    expect(BIDI.test(text), text).toBe(false);
    expect(BIDI.test(terminalText(`1. ${SPOOFED_TITLE}`))).toBe(false);
  });
});
