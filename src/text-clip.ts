// How text that may be long (a model's reply, a document's line, an error body) is cut before it
// goes into a log line, a span attribute, a prompt or a tool result: at a bound, never between the
// two halves of a surrogate pair, with an ellipsis that says something was cut.

/** `text` cut to `max` UTF-16 units followed by `ellipsis`; unchanged when it fits. */
export function clipText(text: string, max: number, ellipsis = "…"): string {
  if (text.length <= max) return text;
  let end = Math.max(0, Math.floor(max));
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}${ellipsis}`;
}

/** `text` on one line (runs of white space become one space, ends trimmed), then clipped. */
export function oneLine(text: string, max: number): string {
  return clipText(String(text).replace(/\s+/g, " ").trim(), max);
}

/** `text` cut so that it and `ellipsis` together fit in `max` UTF-16 units; unchanged when it fits. */
export function fitText(text: string, max: number, ellipsis = "…"): string {
  if (text.length <= max) return text;
  return clipText(text, max - ellipsis.length, ellipsis);
}
