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
