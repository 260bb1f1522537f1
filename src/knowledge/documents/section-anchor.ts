// Which ids may stand after a page's `#` in a link to a section (heading-anchor.ts finds them in
// HTML pages; document-links.ts links to them). Ids come from documents and from stored indexes:
// both are checked before a link is made of them.

/** Longer ids are not names a generator writes: not kept. */
export const MAX_ANCHOR_CHARS = 200;

/**
 * Whether `value` can stand after a page's `#`: a string of 1 to MAX_ANCHOR_CHARS characters with
 * no whitespace or control character (an HTML id holds no whitespace).
 */
export function isSafeAnchor(value: unknown): value is string {
  return (
    typeof value === "string" &&
    value.length > 0 &&
    value.length <= MAX_ANCHOR_CHARS &&
    !/[\s\u0000-\u001f\u007f-\u009f]/u.test(value)
  );
}

/** One attribute of a heading's attribute list: `#id`, `.class`, `key=value`, or Pandoc's `-` (unnumbered). */
const ATTRIBUTE = String.raw`(?:[#.][^\s{}]+|[\w-]+=(?:"[^"]*"|'[^']*'|[^\s{}"']+)|-)`;
/** A trailing attribute list: Pandoc and Docusaurus `{#id}`, kramdown and MkDocs `{: #id .class}`. */
const ATTRIBUTE_LIST = new RegExp(String.raw`\s*\{:?\s*(${ATTRIBUTE}(?:\s+${ATTRIBUTE})*)\s*\}$`, "u");

/**
 * A Markdown heading without its trailing attribute list (`## Install {#install-rules}`), and the
 * id the list names, which the generator gives the heading in the published page. A heading of
 * nothing but braces, or braces that are not an attribute list ("Use {braces}"), is kept whole.
 */
export function withoutHeadingAttributes(heading: string): { heading: string; anchor?: string } {
  const list = ATTRIBUTE_LIST.exec(heading);
  if (!list) return { heading };
  const text = heading.slice(0, list.index).trim();
  if (text === "") return { heading };
  const id = list[1]!
    .split(/\s+/)
    .find((attribute) => attribute.startsWith("#"))
    ?.slice(1);
  return isSafeAnchor(id) ? { heading: text, anchor: id } : { heading: text };
}
