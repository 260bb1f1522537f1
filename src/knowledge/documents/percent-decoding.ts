// A percent-encoded piece of a document's address (an EPUB manifest's `href`, a permalink's
// `#fragment`) as the name it stands for, read from untrusted markup: a malformed escape leaves it
// as written rather than throwing.

/** `text` percent-decoded (`caf%C3%A9` → `café`); as written when it does not decode. */
export function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
