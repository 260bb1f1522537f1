// Which documents an answer rests on, for the citation links a chat host shows under it. The
// model's answer is free text, so the documents come from what the model actually received: the
// knowledge tools' result texts (docs/design.md §4: each hit's header, optional URL line and doc-id line;
// `get_document`'s `# title` + URL layout). A document counts as cited when the answer names its
// URL, title or doc id; when the answer names none, the documents the model opened with
// `get_document`, else the top hits of its searches, are shown as its sources.
import type { AskResult, ToolCallRecord } from "../connectors/bot-runtime.js";
import { docKey, parseDocIdLine } from "../knowledge-tool/result-text.js";
import { safeHttpUrl } from "../knowledge-tool/safe-url.js";
import { fitText } from "../text-clip.js";

export interface CitedDocument {
  /** `collection/id`. */
  key: string;
  title: string;
  /** An http(s) URL, when the document has one. */
  url?: string;
}

export interface Citations {
  documents: CitedDocument[];
  /** True when the answer itself names these documents; false for the fallback sources. */
  named: boolean;
}

const MAX_CITATIONS = 5;
const FALLBACK_SOURCES = 3;
/** Titles and ids shorter than this match too much ordinary text to count as a citation. */
const MIN_MATCH_CHARS = 4;
const MAX_TITLE_CHARS = 200;

const FULL_HEADER =
  /^## (.*?)(?: \*\*\[UNDER ARBEID\]\*\*)?(?: \(\d{1,3}(?:\.\d+)?% relevant · [a-z]+\))?(?: \| updated: [^|]*)?$/;
const BRIEF_HEADER = /^\d+\. \*\*(.*?)\*\*/;

function isSearchTool(name: string): boolean {
  return name.endsWith("search_knowledge");
}

function isGetDocumentTool(name: string): boolean {
  return name.endsWith("get_document");
}

function boundedTitle(title: string): string {
  const single = title.replace(/\s+/g, " ").trim();
  return fitText(single, MAX_TITLE_CHARS);
}

/** The hits of one search result text, in the order shown (the engine's best first). */
export function documentsInSearchText(text: string): CitedDocument[] {
  const found: CitedDocument[] = [];
  let title: string | undefined;
  let url: string | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    const header = FULL_HEADER.exec(line) ?? BRIEF_HEADER.exec(line);
    if (header) {
      title = header[1];
      url = undefined;
      continue;
    }
    const parsed = parseDocIdLine(line);
    if (parsed) {
      const document: CitedDocument = { key: docKey(parsed), title: boundedTitle(title || parsed.id) };
      if (url) document.url = url;
      found.push(document);
      title = undefined;
      url = undefined;
      continue;
    }
    if (title !== undefined && url === undefined) url = safeHttpUrl(line);
  }
  return found;
}

/** A `get_document` result: `# title`, then the URL line when the document has one. */
function documentFromGetDocument(call: ToolCallRecord): CitedDocument | undefined {
  const args = call.args as { collection?: unknown; doc_id?: unknown } | null;
  if (!args || typeof args.collection !== "string" || typeof args.doc_id !== "string") return undefined;
  if (!args.collection || !args.doc_id) return undefined;
  const [first = "", second = ""] = call.resultText.split("\n", 2);
  if (!first.startsWith("# ")) return undefined;
  const document: CitedDocument = {
    key: docKey({ collection: args.collection, id: args.doc_id }),
    title: boundedTitle(first.slice(2)),
  };
  const url = safeHttpUrl(second);
  if (url) document.url = url;
  return document;
}

function namedIn(answer: string, document: CitedDocument): boolean {
  const id = document.key.slice(document.key.indexOf("/") + 1);
  // A link that opens at a section (`page.html#install`) is named by its page's address too.
  const page = document.url?.split("#", 1)[0];
  const candidates = [document.url, page, document.title, id].filter(
    (c): c is string => c !== undefined && c.length >= MIN_MATCH_CHARS,
  );
  return candidates.some((c) => answer.includes(c.toLowerCase()));
}

export function citedDocuments(result: AskResult): Citations {
  const searched = new Map<string, CitedDocument>();
  const opened = new Map<string, CitedDocument>();
  for (const call of result.toolCalls) {
    if (!call.success) continue;
    if (isSearchTool(call.name)) {
      for (const document of documentsInSearchText(call.resultText)) {
        if (!searched.has(document.key)) searched.set(document.key, document);
      }
    } else if (isGetDocumentTool(call.name)) {
      const document = documentFromGetDocument(call);
      if (document && !opened.has(document.key)) opened.set(document.key, document);
    }
  }
  const all = new Map([...opened, ...searched]);
  const answer = result.answer.toLowerCase();
  const named = [...all.values()].filter((document) => namedIn(answer, document));
  if (named.length > 0) return { documents: named.slice(0, MAX_CITATIONS), named: true };
  if (opened.size > 0) return { documents: [...opened.values()].slice(0, MAX_CITATIONS), named: false };
  return { documents: [...searched.values()].slice(0, FALLBACK_SOURCES), named: false };
}
