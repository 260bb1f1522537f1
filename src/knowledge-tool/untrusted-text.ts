// Document text (chunk content, snippets, titles) is untrusted: it is written by whoever wrote
// the document. The parsers read structure from whole lines (doc-id lines, the trailing footer,
// the no-results line, trace markers, corrective notes), so a document that contains such a
// line could otherwise forge a doc key, a retry hint or a trace marker. Our renderer therefore
// defuses those lines before they reach the result text. Huginn does not, which is why the
// parsers also rely on position (only the trailing footer counts, etc.).

/** Line starts (after leading whitespace) that the parsers treat as protocol structure. */
const PROTOCOL_LINE_STARTS = [
  "collection: `",
  "*Weak match",
  "*No confident match",
  "*Rescued via ",
  "*Low confidence results",
  "No results found for '",
  "huginn-trace-url:",
  "huginn-trace-id:",
  "```huginn-trace",
  "[corrective retrieval",
] as const;

function isProtocolLine(line: string): boolean {
  const start = line.length - line.trimStart().length;
  for (const prefix of PROTOCOL_LINE_STARTS) {
    if (line.startsWith(prefix, start)) return true;
  }
  return false;
}

/**
 * Multi-line document text with every protocol-shaped line prefixed by a backslash (a markdown
 * escape, so a reader still sees the words). Other lines are returned byte-for-byte.
 */
export function defuseProtocolLines(text: string): string {
  if (!text.includes("\n")) return isProtocolLine(text) ? escapeLine(text) : text;
  const lines = text.split("\n");
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (isProtocolLine(line)) {
      lines[i] = escapeLine(line);
      changed = true;
    }
  }
  return changed ? lines.join("\n") : text;
}

function escapeLine(line: string): string {
  const start = line.length - line.trimStart().length;
  return `${line.slice(0, start)}\\${line.slice(start)}`;
}

/**
 * Unicode's bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069):
 * they reorder the characters after them, so "Invoice \u202Efdp.exe" shows as "Invoice
 * exe.pdf" — in a terminal, a chat client or a model's context. No name or title needs them
 * (right-to-left text displays without them).
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;
const HAS_BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

/**
 * A value that must stay on one line (title, heading, URL, query): line breaks become single
 * spaces, and bidirectional controls are written as visible escapes (`\u202e`). A line break in
 * a title would otherwise split the hit header and hide the relevance; an override would show
 * another name than the one there.
 */
export function toSingleLine(value: string): string {
  let out = value;
  if (out.includes("\n") || out.includes("\r")) out = out.replace(/\r\n|\r|\n/g, " ");
  if (HAS_BIDI_CONTROL.test(out)) out = out.replace(BIDI_CONTROLS, visibleEscape);
  return out;
}

function visibleEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * C0/C1 controls, DEL and the Unicode line/paragraph separators (what can break a line), and
 * the bidirectional controls (what can show a name as another).
 */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const HAS_CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/**
 * A name (a file name, a document id, a collection) safe to put inside one line: every control
 * character written as a visible escape (`\n`, `\t`, `\u001b`), so a file named
 * "a\ncollection: `x` doc_id: `y`" cannot start a line of its own in a result text or a terminal.
 * Names without control characters (all real ones) are returned unchanged.
 */
export function escapeControlCharacters(name: string): string {
  if (!HAS_CONTROL_CHARACTER.test(name)) return name;
  return name.replace(CONTROL_CHARACTERS, (c) => {
    if (c === "\n") return "\\n";
    if (c === "\r") return "\\r";
    if (c === "\t") return "\\t";
    return visibleEscape(c);
  });
}

const ESCAPED_CONTROL = /\\(n|r|t|u([0-9a-f]{4}))/g;

/**
 * The name {@link escapeControlCharacters} shows as `shown`: what a model copies from a doc-id
 * line turned back into the stored id. Only escapes of control characters are read; anything
 * else stays as written.
 */
export function unescapeControlCharacters(shown: string): string {
  if (!shown.includes("\\")) return shown;
  return shown.replace(ESCAPED_CONTROL, (written, letter: string, hex: string | undefined) => {
    if (letter === "n") return "\n";
    if (letter === "r") return "\r";
    if (letter === "t") return "\t";
    const c = String.fromCharCode(Number.parseInt(hex!, 16));
    return HAS_CONTROL_CHARACTER.test(c) ? c : written;
  });
}
