// Huginn appends a trace marker after the footer when tracing is on: a pointer line
// (`huginn-trace-url: <url>` or `huginn-trace-id: <id>`) or a fenced ```huginn-trace block.
// Correction works on the body and re-appends the marker unchanged, so whatever reads the
// marker downstream still finds it at the very end. Every form is kept (muninn dropped the id
// form and unknown origins: limitation 15 in docs/reference/muninn-corrective-retrieval.md).

export interface PeeledTraceMarker {
  /** The text before the marker, without the blank lines that separated them. */
  body: string;
  /** The marker with the whitespace before and after it, or "" when there is none. */
  marker: string;
}

const POINTER_PREFIXES = ["huginn-trace-url:", "huginn-trace-id:"] as const;
const FENCE_OPEN = "```huginn-trace";
const FENCE = "```";

/**
 * Splits a trailing trace marker off `text` so that `body + marker === text` exactly.
 * Linear time: it looks at the last line and, for a fence, walks back to its opening line.
 */
export function peelTraceMarker(text: string): PeeledTraceMarker {
  const last = lastNonBlankLine(text);
  if (!last) return { body: text, marker: "" };
  const line = text.slice(last.start, last.end);
  let markerStart = -1;
  if (POINTER_PREFIXES.some((prefix) => line.startsWith(prefix) && line.length > prefix.length + 1)) {
    markerStart = last.start;
  } else if (line === FENCE) {
    markerStart = fenceOpeningLine(text, last.start);
  }
  if (markerStart < 0) return { body: text, marker: "" };
  let bodyEnd = markerStart;
  while (bodyEnd > 0 && isWhitespace(text.charCodeAt(bodyEnd - 1))) bodyEnd--;
  return { body: text.slice(0, bodyEnd), marker: text.slice(bodyEnd) };
}

// The start of the ```huginn-trace line that opens the fence closed at `closeStart`, or -1.
// Refuses when another fence line sits in between: then the closing ``` belongs to some other
// code block (say, one quoted in a document) and nothing is peeled.
function fenceOpeningLine(text: string, closeStart: number): number {
  let lineEnd = closeStart - 1; // the newline before the closing fence
  while (lineEnd > 0) {
    const lineStart = text.lastIndexOf("\n", lineEnd - 1) + 1;
    if (text.startsWith(FENCE, lineStart)) {
      return trimLineEnd(text.slice(lineStart, lineEnd)) === FENCE_OPEN ? lineStart : -1;
    }
    lineEnd = lineStart - 1;
  }
  return -1;
}

// Bounds of the last line with non-whitespace content, trailing whitespace excluded.
function lastNonBlankLine(text: string): { start: number; end: number } | undefined {
  let end = text.length;
  while (end > 0 && isWhitespace(text.charCodeAt(end - 1))) end--;
  if (end === 0) return undefined;
  return { start: text.lastIndexOf("\n", end - 1) + 1, end };
}

function trimLineEnd(line: string): string {
  return line.endsWith("\r") || line.endsWith(" ") ? line.trimEnd() : line;
}

function isWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}
