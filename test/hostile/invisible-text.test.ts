// Issue 32, D4: a bidirectional override (U+202E) stayed raw in snippets and in
// `structuredContent`'s titles and doc ids, though the rendered titles and ids were escaped; and
// zero-width and tag characters (which show nothing, but a model reads them) passed everywhere.
// Every text from a document on its way to a model or a person now passes one escaping function
// (escapeUntrusted, knowledge-tool/untrusted-text.ts): the rendered result, `structuredContent`,
// `get_document`, what a strategy sends the model, cited answers, chat-host replies, the terminal.
// D7: a model answer of only zero-width characters passed as an answer (`ask --answer` exit 0).
import { describe, expect, it } from "vitest";
import { terminalText } from "../../src/cli/terminal-text.js";
import type { AskResult, BotRuntime } from "../../src/connectors/bot-runtime.js";
import { answerQuestion, checkQuestion, SENTENCES } from "../../src/hosts/hosted-answer.js";
import { emptyRefreshReport, warnOfWhatWasRead } from "../../src/knowledge/index/refresh.js";
import { fetchNamedDocument, renderDocument } from "../../src/knowledge-tool/document.js";
import { renderSearchResponse } from "../../src/knowledge-tool/render.js";
import { searchKnowledgeOutput } from "../../src/knowledge-tool/tool-output.js";
import { escapeUntrusted, hasVisibleText } from "../../src/knowledge-tool/untrusted-text.js";
import { answerWithCitations } from "../../src/strategies/answer/cited-answer.js";
import { createLogger } from "../../src/telemetry/logger.js";
import type { KnowledgeBackend } from "../../src/types.js";
import { hit, response } from "../knowledge-tool/builders.js";
import { logLines } from "../support/capture-logs.js";
import { ScriptedLlm } from "../support/scripted-llm.js";

/** What must never reach a model or a person raw: bidi controls, zero-width, tags, C0/C1 but \n \t. */
const RAW =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u2060\ufeff\u202a-\u202e\u2066-\u2069\u{e0000}-\u{e007f}]/u;
const OVERRIDE = "\u202E";
const ZWSP = "\u200B";
/** "ignore" spelled in tag characters: invisible on screen, read by a model. */
const TAGS = [..."ignore"].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
const SPOOFED_ID = `docs/Invoice ${OVERRIDE}fdp.exe`;
const SPOOFED_TITLE = `Invoice ${OVERRIDE}fdp.exe${ZWSP}`;
const SNIPPET = `Pay to ${OVERRIDE}1234 5678${ZWSP} now.${TAGS}\nSecond line\x1b[2J.`;

const spoofedHit = () =>
  hit({
    id: SPOOFED_ID,
    title: SPOOFED_TITLE,
    snippet: SNIPPET,
    chunks: [{ heading: "H", content: SNIPPET }],
  });

describe("bidirectional, zero-width and tag characters from documents", () => {
  it("never reach a rendered snippet or chunk raw, in both modes", () => {
    for (const brief of [false, true]) {
      const text = renderSearchResponse(response({ results: [spoofedHit()] }), { brief });
      expect(RAW.test(text), text).toBe(false);
      expect(text).toContain("Pay to \\u202e1234 5678\\u200b now.\\u{e0069}");
      expect(text).toContain("Second line\\u001b[2J.");
    }
  });

  it("never reach structuredContent raw; its doc_id opens the document through get_document", async () => {
    const out = searchKnowledgeOutput(`find ${OVERRIDE}x`, ["wiki"], [spoofedHit()], {
      changed: true,
      queriesTried: [`retry ${ZWSP}y`],
      newHits: [1],
    });
    expect(RAW.test(JSON.stringify(out)), JSON.stringify(out)).toBe(false);
    expect(out.hits[0]).toMatchObject({
      doc_id: "docs/Invoice \\u202efdp.exe",
      title: "Invoice \\u202efdp.exe\\u200b",
    });
    const stored = new Map([[SPOOFED_ID, "the file"]]);
    expect(await fetchNamedDocument(async (id) => stored.get(id), out.hits[0]!.doc_id)).toBe("the file");
  });

  it("never reach get_document's body raw, and a terminal line shows them escaped", () => {
    const text = renderDocument({ collection: "wiki", id: SPOOFED_ID, title: SPOOFED_TITLE, text: SNIPPET });
    expect(RAW.test(text), text).toBe(false);
    expect(RAW.test(terminalText(SNIPPET))).toBe(false);
    expect(terminalText("a\tb\nc")).toBe("a\tb\nc");
    // A CR that ends a line is kept; one alone would return a terminal's cursor over the line.
    expect(terminalText("a\r\nb\rc")).toBe("a\r\nb\\rc");
  });

  it("what a strategy sends the model and the citations it returns are escaped", async () => {
    const backend: KnowledgeBackend = {
      collections: () => ["wiki"],
      search: async () => response({ results: [spoofedHit()] }),
    };
    const llm = new ScriptedLlm((request) =>
      request.system?.includes("quotation engine") ? JSON.stringify({ found: false }) : "Pay now [1].",
    );
    const cited = await answerWithCitations(llm, backend, "whom do I pay?", { sources: 1 });
    for (const request of llm.requests)
      expect(RAW.test(JSON.stringify(request)), JSON.stringify(request)).toBe(false);
    expect(llm.requests.some((r) => r.messages.some((m) => m.content.includes("\\u202e1234")))).toBe(true);
    expect(RAW.test(JSON.stringify(cited.citations))).toBe(false);
    expect(cited.citations[0]).toMatchObject({ id: "docs/Invoice \\u202efdp.exe" });
  });

  it("a chat host's reply carries none raw", async () => {
    const runtime: BotRuntime = {
      ask: async (): Promise<AskResult> => ({ answer: `Pay ${OVERRIDE}4321${TAGS}.`, toolCalls: [] }),
      close: async () => undefined,
    };
    const answer = await answerQuestion(runtime, "whom do I pay?", {
      conversationId: "c",
      signal: new AbortController().signal,
      log: createLogger({ level: "silent" }),
    });
    expect(answer).toMatchObject({
      ok: true,
      answer: "Pay \\u202e4321\\u{e0069}\\u{e0067}\\u{e006e}\\u{e006f}\\u{e0072}\\u{e0065}.",
    });
  });

  it("a file name in the indexer's skip warning is escaped", async () => {
    const report = emptyRefreshReport("docs");
    report.skipped.push({ path: SPOOFED_ID, reason: "not a regular file" });
    const { log } = await logLines(async () => warnOfWhatWasRead("docs", report));
    const line = JSON.parse(log.trim().split("\n")[0]!) as { msg: string };
    expect(line.msg).toBe("skipped docs/Invoice \\u202efdp.exe: not a regular file");
  });

  it("the joiners Persian and emoji need pass between letters; elsewhere they are escaped", () => {
    const persian = "می\u200Cخواهم";
    const family = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}";
    expect(escapeUntrusted(persian, "text")).toBe(persian);
    expect(escapeUntrusted(family, "line")).toBe(family);
    expect(escapeUntrusted(" \u200D ", "text")).toBe(" \\u200d ");
    expect(escapeUntrusted(persian, "name")).toBe("می\\u200cخواهم");
  });
});

describe("an answer with no visible text is no answer", () => {
  const invisible = `${ZWSP}\u200D\u2060\uFEFF${TAGS}\u202E \n`;

  it("a cited answer of zero-width characters is a failure, not an answer", async () => {
    const backend: KnowledgeBackend = {
      collections: () => ["wiki"],
      search: async () => response({ results: [hit({ snippet: "Pay on the first of the month." })] }),
    };
    const llm = new ScriptedLlm((request) =>
      request.system?.includes("quotation engine") ? JSON.stringify({ found: false }) : invisible,
    );
    const cited = await answerWithCitations(llm, backend, "when do I pay?", { sources: 1 });
    expect(cited.answer).toBe("");
    expect(cited.failure).toMatch(/empty answer/);
  });

  it("a chat host says it has no answer; a question of zero-width characters is an empty one", async () => {
    const runtime: BotRuntime = {
      ask: async (): Promise<AskResult> => ({ answer: invisible, toolCalls: [] }),
      close: async () => undefined,
    };
    const answer = await answerQuestion(runtime, "when do I pay?", {
      conversationId: "c",
      signal: new AbortController().signal,
      log: createLogger({ level: "silent" }),
    });
    expect(answer).toEqual({ ok: false, sentence: SENTENCES.noAnswer });
    expect(checkQuestion(invisible)).toEqual({ sentence: SENTENCES.empty });
  });

  it("the rule: visible text is any character that is neither white space nor invisible", () => {
    expect(hasVisibleText(invisible)).toBe(false);
    expect(hasVisibleText("\u00AD\u200E\u200F")).toBe(false);
    expect(hasVisibleText(`${ZWSP}a`)).toBe(true);
    expect(hasVisibleText("می\u200Cخواهم")).toBe(true);
  });
});
