// Treewalk's tool-call grammar (docs/reference/vectorless-strategies.md §5.4, §11): get_document_structure | get_pages | done,
// with each field read on its own so one badly typed field does not void the rest.
import { numberField, readJsonObject, stringField } from "./model-json.js";

export interface CitedRange {
  start: number;
  end: number;
  /** Per-range confidence from the rich form; 0 when not stated. */
  confidence: number;
}

export interface TreeWalkAction {
  tool: string;
  reasoning: string;
  startPage: number;
  endPage: number;
  answer: string;
  citedPages: CitedRange[];
  confidence: number;
}

export type TreeWalkParse = { ok: true; action: TreeWalkAction } | { ok: false; error: string };

const MAX_CITED = 64;

export function parseTreeWalkAction(raw: string): TreeWalkParse {
  const read = readJsonObject(raw);
  if (!read.ok) return { ok: false, error: read.error };
  const v = read.value;
  const tool = (stringField(v.tool) ?? stringField(v.action))?.toLowerCase();
  if (!tool) return { ok: false, error: "missing tool" };
  let startPage = integer(v.start_page);
  let endPage = integer(v.end_page);
  if (startPage === 0 && endPage === 0) {
    const pages = typeof v.pages === "string" ? pageString(v.pages) : undefined;
    if (pages) [startPage, endPage] = pages;
  }
  return {
    ok: true,
    action: {
      tool,
      reasoning: stringField(v.reasoning) ?? "",
      startPage,
      endPage,
      answer: typeof v.answer === "string" ? v.answer.trim() : "",
      citedPages: citedRanges(v.cited_pages),
      confidence: numberField(v.confidence) ?? 0,
    },
  };
}

/** `[[s,e],…]`, else the rich `[{pages|start/end, confidence}]`, else `["5-7","10"]`. */
function citedRanges(value: unknown): CitedRange[] {
  if (!Array.isArray(value)) return [];
  const list = value.slice(0, MAX_CITED);
  const pairs: CitedRange[] = [];
  for (const entry of list) {
    if (!Array.isArray(entry)) continue;
    pairs.push({ start: integer(entry[0]), end: integer(entry[1]), confidence: 0 });
  }
  if (pairs.length > 0) return pairs;
  const rich: CitedRange[] = [];
  for (const entry of list) {
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) continue;
    const e = entry as Record<string, unknown>;
    const confidence = numberField(e.confidence) ?? 0;
    let range: [number, number] | undefined;
    if (Array.isArray(e.pages)) {
      const a = integer(e.pages[0]);
      const b = e.pages.length > 1 ? integer(e.pages[1]) : a;
      if (a > 0 && b > 0) range = [a, b];
    } else if (typeof e.pages === "string") range = pageString(e.pages);
    if (!range) {
      const s = integer(e.start);
      const end = integer(e.end);
      if (s > 0) range = [s, end > 0 ? end : s];
    }
    if (range) rich.push({ start: range[0], end: range[1], confidence });
  }
  if (rich.length > 0) return rich;
  const strings: CitedRange[] = [];
  for (const entry of list) {
    const range = typeof entry === "string" ? pageString(entry) : undefined;
    if (range) strings.push({ start: range[0], end: range[1], confidence: 0 });
  }
  return strings;
}

/** "5-7", "12", "5,7": the separator is the first `-` or `,`; both parts positive integers. */
function pageString(text: string): [number, number] | undefined {
  const m = /^\s*(\d{1,9})\s*(?:[-,]\s*(\d{1,9})\s*)?$/.exec(text);
  if (!m) return undefined;
  const a = Number(m[1]);
  const b = m[2] === undefined ? a : Number(m[2]);
  return a > 0 && b > 0 ? [a, b] : undefined;
}

function integer(value: unknown): number {
  const n = numberField(value);
  return n === undefined ? 0 : Math.trunc(n);
}
