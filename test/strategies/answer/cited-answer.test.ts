// ask --answer's core: an answer with citations (document, pages, verbatim quote), end to end
// over a generated PDF in the real engine, with a scripted model.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KnowledgeEngine } from "../../../src/backends/embedded/embedded-engine.js";
import { loadDocument } from "../../../src/knowledge/documents/load-document.js";
import type { ChatRequest } from "../../../src/llm/llm-client.js";
import { answerWithCitations, NO_SOURCES_ANSWER } from "../../../src/strategies/answer/cited-answer.js";
import { PAGE_THREE_PHRASE, threePagePdf } from "../../fixtures/pdf/three-page-manual.js";
import { ScriptedLlm } from "../../support/scripted-llm.js";

const dir = mkdtempSync(join(tmpdir(), "second-look-answer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function engine(): Promise<KnowledgeEngine> {
  const path = join(dir, "manual.pdf");
  writeFileSync(path, threePagePdf());
  const loaded = await loadDocument(path, "manual.pdf");
  if (!loaded.ok) throw new Error(loaded.reason);
  return KnowledgeEngine.fromDocuments({ manuals: [loaded.doc] });
}

function model(): ScriptedLlm {
  let walk = 0;
  return new ScriptedLlm((request: ChatRequest) => {
    const system = request.system ?? "";
    if (system.includes("navigating its pages")) {
      walk++;
      if (walk === 1) return JSON.stringify({ tool: "get_document_structure" });
      if (walk === 2) return JSON.stringify({ tool: "get_pages", start_page: 3, end_page: 3 });
      return JSON.stringify({ tool: "done", answer: "Quarterly.", cited_pages: [[3, 3]], confidence: 0.9 });
    }
    if (system.includes("quotation engine"))
      return JSON.stringify({ found: true, quote: `run the ${PAGE_THREE_PHRASE} routine` });
    return "Run the calibration routine once a quarter [1].";
  });
}

describe("answerWithCitations", () => {
  it("answers with the document, its pages and a verbatim quote", async () => {
    const llm = model();
    const result = await answerWithCitations(
      llm,
      await engine(),
      `How often is the ${PAGE_THREE_PHRASE} run?`,
      { sources: 1 },
    );
    expect(result.answer).toBe("Run the calibration routine once a quarter [1].");
    expect(result.citations).toHaveLength(1);
    const [c] = result.citations;
    expect(c).toMatchObject({
      n: 1,
      collection: "manuals",
      id: "manual.pdf",
      heading: "Maintenance",
      pages: { start: 3, end: 3 },
    });
    expect(c!.quote!.text).toBe(`run the ${PAGE_THREE_PHRASE} routine`);
    expect(c!.quote!.start).toBeGreaterThanOrEqual(0);
    expect(llm.requests.at(-1)!.messages[0]!.content).toContain(
      "[1] Atlas Field Manual — Maintenance (p. 3)",
    );
    expect(result.usage.llmCalls).toBe(4);
  });

  it("no sources: the fixed refusal, no model call", async () => {
    const llm = new ScriptedLlm([]);
    const result = await answerWithCitations(llm, await engine(), "xylophone quantum");
    expect(result).toMatchObject({ answer: NO_SOURCES_ANSWER, citations: [] });
    expect(llm.calls).toBe(0);
  });

  it("a failing model still returns the sources, without text", async () => {
    const llm = new ScriptedLlm([new Error("provider 500")], "m", { repeatLast: true });
    const result = await answerWithCitations(llm, await engine(), PAGE_THREE_PHRASE, { sources: 1 });
    expect(result.answer).toBe("");
    expect(result.failure).toMatch(/^answer synthesis: provider 500/);
    expect(result.citations[0]).toMatchObject({ id: "manual.pdf", pages: { start: 3, end: 3 } });
  });
});
