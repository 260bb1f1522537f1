/**
 * A leading YAML front matter block, read as flat `key: value` lines.
 *
 * Only top-level scalars are read (title, url, updated, …): that is all the loaders use, and
 * a full YAML parser would be a dependency for fields we ignore. Nested maps, lists and
 * block scalars are skipped, never misread as values.
 */
export interface FrontMatter {
  /** Keys lower-cased; values unquoted. */
  fields: Record<string, string>;
  /** The source after the block (the whole source when there is none). */
  body: string;
}

// Anchored at the start without the `m` flag, so at most one attempt over the input.
const BLOCK = /^---[ \t]*\n(?:([\s\S]*?)\n)?(?:---|\.\.\.)[ \t]*(?:\n|$)/;
const LINE = /^([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]+(.*))?$/;

/** Expects LF line endings (the loader normalises CRLF first). */
export function splitFrontMatter(source: string): FrontMatter {
  const match = BLOCK.exec(source);
  if (!match) return { fields: {}, body: source };
  const fields: Record<string, string> = {};
  for (const line of (match[1] ?? "").split("\n")) {
    const kv = LINE.exec(line);
    if (!kv) continue;
    const value = scalar(kv[2] ?? "");
    if (value !== undefined) fields[kv[1]!.toLowerCase()] = value;
  }
  return { fields, body: source.slice(match[0].length) };
}

function scalar(raw: string): string | undefined {
  const text = raw.trim();
  if (text === "") return undefined;
  if (text.startsWith('"')) {
    const end = text.lastIndexOf('"');
    if (end <= 0) return undefined;
    return text.slice(1, end).replace(/\\(["\\])/g, "$1");
  }
  if (text.startsWith("'")) {
    const end = text.lastIndexOf("'");
    if (end <= 0) return undefined;
    return text.slice(1, end).replace(/''/g, "'");
  }
  // Block scalars, flow collections, anchors and aliases are not plain strings.
  if (/^[|>[{&*]/.test(text)) return undefined;
  const value = text.replace(/\s+#.*$/, "").trim();
  return value === "" ? undefined : value;
}
