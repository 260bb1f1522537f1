// What the model grader reads of a result: a compact, numbered digest of every hit (title,
// relevance and band, doc key, a short body prefix) and the trailing footer, bounded whatever
// the input. Muninn (docs/reference/muninn-corrective-retrieval.md §5) sent the raw text first (about 11 s a call on a 12 KB prompt), then a
// digest that covered only the hits that fit in 4,000 characters; this one covers all of them
// by sharing the budget out (the body prefix shrinks before any hit is left out), and always
// keeps the footer, where the search says what it thinks of itself.
//
// Linear in the input: one pass over its lines, each line clipped before it is examined. The
// input is the orchestrator's bounded view (at most 256 KB), never the whole result.

import { isHitHeaderStart } from "../knowledge-tool/relevance-text.js";
import {
  CORRECTIVE_NOTE_START,
  extractTrailingFooter,
  parseDocIdLine,
} from "../knowledge-tool/result-text.js";
import { clipText, fitText } from "../text-clip.js";

/** The whole digest, footer included, is at most this long. */
export const MAX_DIGEST_CHARS = 4_000;
/** A hit's body prefix is at most this long (muninn's figure); shorter when many hits share. */
export const BODY_PREFIX_CHARS = 240;
/** Below this a body prefix says nothing; hits then get their head line only. */
const MIN_BODY_CHARS = 24;
const MAX_TITLE_CHARS = 100;
const MAX_KEY_CHARS = 100;
const MAX_FOOTER_CHARS = 600;
const MAX_PREAMBLE_CHARS = 400;
const MAX_NOTE_CHARS = 200;
/** Only this much of any line is examined (a 1 MB line costs no more than a short one). */
const MAX_LINE_CHARS = 2_000;
const BODY_INDENT = "    ";

export interface GraderDigest {
  /** The digest text ("" when the result is empty). */
  text: string;
  /** Hits found in the input. */
  hits: number;
  /** Hits the digest lists (all of them unless even their head lines do not fit). */
  listed: number;
  /** The footer line as kept in the digest ("" when there is none). */
  footer: string;
}

interface HitEntry {
  kind: "hit";
  header: string;
  key?: string;
  body: string;
}

type Entry = HitEntry | { kind: "note"; text: string };

/** The digest of `text` (a result text with its trace marker already peeled). */
export function digestResults(text: string, maxChars: number = MAX_DIGEST_CHARS): GraderDigest {
  if (typeof text !== "string" || text.trim() === "") return { text: "", hits: 0, listed: 0, footer: "" };
  const { body, footer: rawFooter } = extractTrailingFooter(text);
  const footer = clip(rawFooter, MAX_FOOTER_CHARS);

  const preamble: string[] = [];
  const entries: Entry[] = [];
  let current: HitEntry | undefined;
  const lines: string[] = [];
  for (let from = 0; from <= body.length; ) {
    const nl = body.indexOf("\n", from);
    const end = nl < 0 ? body.length : nl;
    lines.push(body.slice(from, Math.min(end, from + MAX_LINE_CHARS)));
    from = end + 1;
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trim();
    if (trimmed === "" || trimmed === "---") continue;
    if (isHitHeaderStart(line) && docIdLineFollows(lines, i)) {
      current = { kind: "hit", header: line, body: "" };
      entries.push(current);
    } else if (trimmed.startsWith(CORRECTIVE_NOTE_START)) {
      entries.push({ kind: "note", text: clip(trimmed, MAX_NOTE_CHARS) });
      current = undefined;
    } else if (current) {
      const parsed = current.key === undefined ? parseDocIdLine(line) : undefined;
      if (parsed) current.key = `${parsed.collection}/${parsed.id}`;
      else if (current.body.length <= BODY_PREFIX_CHARS && !/^https?:\/\//.test(trimmed)) {
        const piece = collapse(trimmed.replace(/\*\*/g, ""));
        current.body = current.body === "" ? piece : `${current.body} ${piece}`;
      }
    } else if (entries.length === 0) {
      // Above the first hit: the no-results line, the low-confidence banner, a graph answer.
      preamble.push(collapse(trimmed));
    }
  }

  const hits = entries.filter((e): e is HitEntry => e.kind === "hit");
  const preambleText = clip(preamble.join(" "), MAX_PREAMBLE_CHARS);
  const footerBlock = footer === "" ? "" : `\n\n${footer}`;
  // What is left for the hits and notes once the preamble and the footer are in.
  const budget = maxChars - footerBlock.length - (preambleText === "" ? 0 : preambleText.length + 2);

  const heads = new Map<HitEntry, string>(hits.map((hit, i) => [hit, headLine(hit, i + 1)]));
  const notes = entries.filter((e) => e.kind === "note") as { kind: "note"; text: string }[];
  const fixed =
    [...heads.values()].reduce((n, head) => n + head.length + 2, 0) +
    notes.reduce((n, note) => n + note.text.length + 2, 0);

  const blocks: string[] = [];
  let listed = 0;
  if (fixed <= budget) {
    const share = hits.length > 0 ? Math.floor((budget - fixed) / hits.length) - BODY_INDENT.length - 1 : 0;
    const bodyChars = Math.min(BODY_PREFIX_CHARS, share);
    for (const entry of entries) {
      if (entry.kind === "note") {
        blocks.push(entry.text);
        continue;
      }
      const head = heads.get(entry)!;
      const prefix = bodyChars >= MIN_BODY_CHARS && entry.body !== "" ? clip(entry.body, bodyChars) : "";
      blocks.push(prefix === "" ? head : `${head}\n${BODY_INDENT}${prefix}`);
      listed++;
    }
  } else {
    // Too many hits for even one line each: as many head lines as fit, then a count of the rest.
    const tailReserve = 48;
    let used = 0;
    for (const hit of hits) {
      const head = heads.get(hit)!;
      if (used + head.length + 2 > budget - tailReserve) break;
      blocks.push(head);
      used += head.length + 2;
      listed++;
    }
    if (listed < hits.length) blocks.push(`(+${hits.length - listed} more results not listed)`);
  }

  let digest = [preambleText, blocks.join("\n\n")].filter((part) => part !== "").join("\n\n");
  // The arithmetic above keeps within the budget; this cut makes the bound unconditional.
  const room = Math.max(0, maxChars - footerBlock.length);
  digest = fitText(digest, room);
  return { text: `${digest}${footerBlock}`.slice(0, maxChars), hits: hits.length, listed, footer };
}

/** Lines a hit's header may have before its doc-id line (its URL and breadcrumb). */
const MAX_LINES_BEFORE_DOC_ID = 3;

/**
 * Whether the header at `at` is a hit's: a rendered hit always has its doc-id line right under
 * the header (after at most a URL and a breadcrumb). A document line shaped like a header
 * ("## Title (99.0% relevant · high)") has none — the renderer defuses doc-id-shaped lines in
 * document text — so document text never becomes a numbered hit with a forged relevance.
 */
function docIdLineFollows(lines: readonly string[], at: number): boolean {
  let seen = 0;
  for (let j = at + 1; j < lines.length && seen <= MAX_LINES_BEFORE_DOC_ID; j++) {
    const line = lines[j]!;
    if (line.trim() === "") continue;
    if (parseDocIdLine(line)) return true;
    if (isHitHeaderStart(line)) return false;
    seen++;
  }
  return false;
}

// `[n] Title (82.3% · high) — collection/id`: the header's markup and date dropped, the title
// clipped, and the relevance kept (it sits at the end of the header, which a plain cut loses).
function headLine(hit: HitEntry, n: number): string {
  let header = hit.header.trim();
  header = header.startsWith("## ") ? header.slice(3) : header.replace(/^\d{1,7}\.\s+/, "");
  let relevance = "";
  const tail = header.slice(-120);
  const match =
    /\s\((\d{1,3}(?:\.\d{1,3})?)% relevant(?: · ([a-z]{1,12}))?\)(?:\s*\|\s*(?:updated:\s*)?\d{4}-\d{2}-\d{2})?\s*$/.exec(
      tail,
    );
  if (match) {
    header = header.slice(0, header.length - tail.length + match.index);
    relevance = match[2] ? ` (${match[1]}% · ${match[2]})` : ` (${match[1]}%)`;
  }
  const title = clip(collapse(header.replace(/\*\*/g, "")), MAX_TITLE_CHARS);
  const key = hit.key !== undefined ? ` — ${clip(hit.key, MAX_KEY_CHARS)}` : "";
  return `[${n}] ${title}${relevance}${key}`;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function clip(text: string, max: number): string {
  return clipText(text, max - 1);
}
