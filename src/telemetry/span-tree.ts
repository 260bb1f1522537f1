// `second-look ask --trace`: the spans of a run as an indented tree, with durations and the
// attributes a reader needs to see what the corrective pass did.

import type { AttributeValue, HrTime } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { clipText } from "../text-clip.js";
import { ATTR } from "./span-names.js";

export { captureSpans, type SpanCapture } from "./capture-spans.js";

/** Shown after the duration, in this order, with these short labels. */
const KEY_ATTRIBUTES: readonly (readonly [string, string])[] = [
  [ATTR.correctiveMode, "mode"],
  [ATTR.correctiveVerdicts, "verdicts"],
  [ATTR.correctiveFinalVerdict, "final"],
  [ATTR.correctiveRetries, "retries"],
  [ATTR.correctiveQueries, "queries"],
  [ATTR.correctiveCollections, "collections"],
  [ATTR.correctiveNewHits, "new_hits"],
  [ATTR.requestModel, "model"],
  [ATTR.usageInputTokens, "in_tokens"],
  [ATTR.usageOutputTokens, "out_tokens"],
];
/** Lists of free text (a re-query's queries): each item quoted, so a comma in one stays readable. */
const QUOTED_LISTS: ReadonlySet<string> = new Set([ATTR.correctiveQueries]);
const MAX_VALUE_CHARS = 80;
/** A re-query's queries are what the reader looks for: room for a round of three. */
const MAX_LIST_CHARS = 240;
const ERROR_STATUS = 2; // SpanStatusCode.ERROR, without importing the enum's runtime module

/**
 * One line per span: roots first (spans whose parent is not among `spans`), children under
 * their parent in start order, each as `name  12.3 ms  key=value …`, with ` ERROR: message`
 * when the span failed.
 */
export function renderSpanTree(spans: readonly ReadableSpan[]): string {
  const byId = new Map<string, ReadableSpan>();
  for (const span of spans) byId.set(span.spanContext().spanId, span);
  const children = new Map<string, ReadableSpan[]>();
  const roots: ReadableSpan[] = [];
  for (const span of spans) {
    const parentId = span.parentSpanContext?.spanId;
    if (parentId !== undefined && parentId !== span.spanContext().spanId && byId.has(parentId)) {
      const siblings = children.get(parentId) ?? [];
      siblings.push(span);
      children.set(parentId, siblings);
    } else {
      roots.push(span);
    }
  }
  const lines: string[] = [];
  const seen = new Set<string>();
  const walk = (span: ReadableSpan, prefix: string, connector: string, childPrefix: string): void => {
    const id = span.spanContext().spanId;
    if (seen.has(id)) return; // a malformed parent chain must not loop
    seen.add(id);
    lines.push(`${prefix}${connector}${describe(span)}`);
    const kids = sortByStart(children.get(id) ?? []);
    kids.forEach((kid, i) => {
      const last = i === kids.length - 1;
      walk(kid, prefix + childPrefix, last ? "└─ " : "├─ ", last ? "   " : "│  ");
    });
  };
  for (const root of sortByStart(roots)) walk(root, "", "", "");
  return lines.join("\n");
}

function describe(span: ReadableSpan): string {
  const parts = [span.name, formatMs(hrToMs(span.duration))];
  for (const [key, label] of KEY_ATTRIBUTES) {
    const value = span.attributes[key];
    if (value !== undefined && value !== null)
      parts.push(`${label}=${formatValue(value, QUOTED_LISTS.has(key))}`);
  }
  let line = parts.join("  ");
  if (span.status.code === ERROR_STATUS)
    line += `  ERROR${span.status.message ? `: ${clip(span.status.message)}` : ""}`;
  return line;
}

function formatValue(value: AttributeValue, quoted: boolean): string {
  if (Array.isArray(value)) {
    const items = value.map((v) => (quoted ? JSON.stringify(String(v)) : String(v))).join(",");
    return clip(items, quoted ? MAX_LIST_CHARS : MAX_VALUE_CHARS);
  }
  if (typeof value === "string") return JSON.stringify(clip(value));
  return String(value);
}

function clip(text: string, max = MAX_VALUE_CHARS): string {
  return clipText(text.replace(/\s+/g, " "), max);
}

function formatMs(ms: number): string {
  return `${ms < 10 ? ms.toFixed(2) : ms.toFixed(1)} ms`;
}

function hrToMs(time: HrTime): number {
  return time[0] * 1e3 + time[1] / 1e6;
}

function sortByStart(spans: ReadableSpan[]): ReadableSpan[] {
  return [...spans].sort((a, b) => hrToMs(a.startTime) - hrToMs(b.startTime));
}
