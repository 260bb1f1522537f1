import { describe, expect, it } from "vitest";
import type { ToolCallRecord } from "../../src/connectors/bot-runtime.js";
import { citedDocuments, documentsInSearchText } from "../../src/hosts/cited-documents.js";
import { safeHttpUrl as safeUrl } from "../../src/knowledge-tool/safe-url.js";

const FULL = [
  "## Parental leave (91.0% relevant · high) | updated: 2024-05-01",
  "https://wiki.example.com/leave",
  "Handbook > People",
  "collection: `handbook` doc_id: `leave.md`",
  "",
  "**Eligibility**",
  "Parents get 16 weeks.",
  "",
  "## Expenses **[UNDER ARBEID]** (52.5% relevant · medium)",
  "collection: `handbook` doc_id: `expenses.md`",
].join("\n");

const BRIEF = [
  "1. **Travel policy** > Hotels (70.0% relevant · high)",
  "   https://wiki.example.com/travel",
  "   Book through the portal.",
  "   collection: `handbook` doc_id: `travel.md`",
].join("\n");

function search(resultText: string, success = true): ToolCallRecord {
  return { id: "1", name: "search_knowledge", args: { query: "q" }, resultText, success };
}

describe("documentsInSearchText", () => {
  it("reads title, URL and key from full and brief hits", () => {
    expect(documentsInSearchText(FULL)).toEqual([
      { key: "handbook/leave.md", title: "Parental leave", url: "https://wiki.example.com/leave" },
      { key: "handbook/expenses.md", title: "Expenses" },
    ]);
    expect(documentsInSearchText(BRIEF)).toEqual([
      { key: "handbook/travel.md", title: "Travel policy", url: "https://wiki.example.com/travel" },
    ]);
  });
});

describe("citedDocuments", () => {
  it("cites the documents the answer names, by title or URL", () => {
    const cited = citedDocuments({
      answer: "See Parental leave and https://wiki.example.com/travel.",
      toolCalls: [search(FULL), search(BRIEF)],
    });
    expect(cited.named).toBe(true);
    expect(cited.documents.map((d) => d.key)).toEqual(["handbook/leave.md", "handbook/travel.md"]);
  });

  it("cites a hit whose link opens at its section when the answer names the page without it", () => {
    // Published from Markdown: neither the title nor the doc id is in the answer, only the page.
    const anchored = [
      "## Packet filtering rules (80.0% relevant · high)",
      "https://docs.example.com/guide/filtering.html#chains",
      "collection: `handbook` doc_id: `guide/filtering.md`",
      "",
      "## Leave (60.0% relevant · medium)",
      "https://docs.example.com/guide/leave.html#parents",
      "collection: `handbook` doc_id: `guide/leave.md`",
    ].join("\n");
    const cited = citedDocuments({
      answer: "The chains are described at https://docs.example.com/guide/filtering.html.",
      toolCalls: [search(anchored)],
    });
    expect(cited).toEqual({
      named: true,
      documents: [
        {
          key: "handbook/guide/filtering.md",
          title: "Packet filtering rules",
          url: "https://docs.example.com/guide/filtering.html#chains",
        },
      ],
    });
  });

  it("falls back to opened documents, then to the top hits, and ignores failed calls", () => {
    const opened: ToolCallRecord = {
      id: "2",
      name: "knowledge-get_document",
      args: { collection: "handbook", doc_id: "travel.md" },
      resultText: "# Travel policy\nhttps://wiki.example.com/travel\n\nBody.",
      success: true,
    };
    expect(citedDocuments({ answer: "Yes.", toolCalls: [search(FULL), opened] })).toEqual({
      named: false,
      documents: [
        { key: "handbook/travel.md", title: "Travel policy", url: "https://wiki.example.com/travel" },
      ],
    });
    expect(citedDocuments({ answer: "Yes.", toolCalls: [search(FULL)] }).documents.map((d) => d.key)).toEqual(
      ["handbook/leave.md", "handbook/expenses.md"],
    );
    expect(citedDocuments({ answer: "Yes.", toolCalls: [search(FULL, false)] }).documents).toEqual([]);
  });
});

describe("safeUrl", () => {
  it("keeps bounded http(s) URLs only", () => {
    expect(safeUrl(" https://a.example/x ")).toBe("https://a.example/x");
    expect(safeUrl("javascript:alert(1)")).toBeUndefined();
    expect(safeUrl("file:///etc/passwd")).toBeUndefined();
    expect(safeUrl(`https://a.example/${"x".repeat(3_000)}`)).toBeUndefined();
    expect(safeUrl("https://a.example/with space")).toBeUndefined();
  });
});
