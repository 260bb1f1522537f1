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
 * What can make text show other than it is, written as a visible escape wherever document text
 * reaches a model or a person (docs/design.md §4): C0 and C1 controls and DEL (a terminal acts on
 * them), the line and paragraph separators, the bidirectional embeddings, overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069: "Invoice \u202Efdp.exe" shows as "Invoice exe.pdf"), and the
 * characters that show nothing: zero-width space, word joiner and the invisible operators
 * (U+200B, U+2060–U+2064), the byte-order mark inside text (U+FEFF), the Mongolian vowel
 * separator (U+180E), and the tag characters (U+E0000–U+E007F, which spell ASCII no one sees but
 * a model reads). The zero-width joiner and non-joiner (U+200C, U+200D) are written as they are
 * between two letters, marks, digits or pictographs, where Persian, the Indic scripts and emoji
 * sequences need them, and escaped anywhere else. The bidirectional marks (U+200E, U+200F,
 * U+061C) pass: they only place neutral characters and cannot reorder a name.
 */
const UNTRUSTED =
  /[\u0000-\u001f\u007f-\u009f\u180e\u200b-\u200d\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/gu;
const HAS_UNTRUSTED = new RegExp(UNTRUSTED.source, "u");
/** The same, less what multi-line text keeps (newline, tab, a CR before a newline): found without a call per line. */
const UNTRUSTED_IN_TEXT =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u180e\u200b-\u200d\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]|\r(?!\n)/gu;
const HAS_UNTRUSTED_IN_TEXT = new RegExp(UNTRUSTED_IN_TEXT.source, "u");
const JOINABLE = /[\p{L}\p{M}\p{N}\p{Extended_Pictographic}\p{Sk}]/u;
const LINE_BREAK = /\r\n|[\r\n\u2028\u2029]/g;

/**
 * How a text is kept: `text` is multi-line document text (snippets, chunk bodies, a whole
 * document; newline, tab and a CR before a newline kept); `line` must stay on one line (a title,
 * heading, URL, query: each line break becomes one space, tabs kept); `name` is an identifier
 * shown inside a line (a file name, a doc id, a collection: every control escaped, `\n` `\t`
 * included, so it reads back exactly with {@link unescapeControlCharacters}).
 */
export type UntrustedShape = "text" | "line" | "name";

/**
 * The one escaping rule for text from a document, a caller or a model on its way to a model or a
 * person: every character {@link UNTRUSTED} lists, as a visible escape (`\u202e`, `\u{e0041}`,
 * `\n` in names). Text with none of them (nearly all text) comes back unchanged, the same string.
 */
export function escapeUntrusted(text: string, shape: UntrustedShape): string {
  let out = text;
  if (shape === "line" && /[\r\n\u2028\u2029]/.test(out)) out = out.replace(LINE_BREAK, " ");
  const multiLine = shape === "text";
  if (!(multiLine ? HAS_UNTRUSTED_IN_TEXT : HAS_UNTRUSTED).test(out)) return out;
  return out.replace(multiLine ? UNTRUSTED_IN_TEXT : UNTRUSTED, (c: string, at: number, whole: string) => {
    if (c === "\n") return "\\n";
    if (c === "\t") return shape === "name" ? "\\t" : c;
    if (c === "\r") return "\\r";
    if ((c === "\u200c" || c === "\u200d") && shape !== "name" && joins(whole, at)) return c;
    return visibleEscape(c);
  });
}

/** Whether a joiner at `at` stands between two characters that join. */
function joins(text: string, at: number): boolean {
  if (at === 0) return false;
  const before = text.codePointAt(isLowSurrogate(text.charCodeAt(at - 1)) && at >= 2 ? at - 2 : at - 1);
  const after = text.codePointAt(at + 1);
  return (
    before !== undefined &&
    after !== undefined &&
    JOINABLE.test(String.fromCodePoint(before)) &&
    JOINABLE.test(String.fromCodePoint(after))
  );
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Whether `text` shows anything: a character that is neither white space nor one of those
 * {@link escapeUntrusted} escapes or keeps only between letters. An answer of zero-width
 * characters is no answer.
 */
export function hasVisibleText(text: string): boolean {
  return /[^\s\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\u{e0000}-\u{e007f}]/u.test(
    text,
  );
}

/**
 * Multi-line document text (a snippet, a chunk, a graph answer) as a model reads it: escaped
 * ({@link escapeUntrusted}, shape `text`) and its protocol-shaped lines defused.
 */
export function untrustedText(text: string): string {
  return defuseProtocolLines(escapeUntrusted(text, "text"));
}

/**
 * A value that must stay on one line (title, heading, URL, query): line breaks become single
 * spaces, and every character {@link escapeUntrusted} lists is written as a visible escape. A
 * line break in a title would otherwise split the hit header and hide the relevance; an override
 * would show another name than the one there.
 */
export function toSingleLine(value: string): string {
  return escapeUntrusted(value, "line");
}

function visibleEscape(c: string): string {
  const code = c.codePointAt(0)!;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * A name (a file name, a document id, a collection) safe to put inside one line: every control
 * character written as a visible escape (`\n`, `\t`, `\u001b`), so a file named
 * "a\ncollection: `x` doc_id: `y`" cannot start a line of its own in a result text or a terminal.
 * Names without control characters (all real ones) are returned unchanged.
 */
export function escapeControlCharacters(name: string): string {
  return escapeUntrusted(name, "name");
}

const ESCAPED_CONTROL = /\\(n|r|t|u([0-9a-f]{4})|u\{(e00[0-7][0-9a-f])\})/g;

/**
 * The name {@link escapeControlCharacters} shows as `shown`: what a model copies from a doc-id
 * line turned back into the stored id. Only escapes of characters it escapes are read; anything
 * else stays as written.
 */
export function unescapeControlCharacters(shown: string): string {
  if (!shown.includes("\\")) return shown;
  return shown.replace(
    ESCAPED_CONTROL,
    (written, letter: string, hex: string | undefined, astral: string | undefined) => {
      if (letter === "n") return "\n";
      if (letter === "r") return "\r";
      if (letter === "t") return "\t";
      const c = String.fromCodePoint(Number.parseInt((hex ?? astral)!, 16));
      return HAS_UNTRUSTED.test(c) ? c : written;
    },
  );
}
