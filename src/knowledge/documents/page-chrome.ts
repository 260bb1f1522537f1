// What documentation generators add to every page that is not the page's text: the permalink
// mark beside each heading and the site's name after each title. Both are repeated on every page
// and every hit, so the model pays for them on each search while they tell it nothing (pydocs:
// 2,553 "¶" marks and 998 " — Python 3.11.2 documentation" suffixes over 100 results).

/**
 * A permalink mark: a link to an anchor on the same page whose text is a lone symbol or nothing.
 * Sphinx and MkDocs write `<a class="headerlink" href="#id">¶</a>`, Docusaurus an empty
 * `<a class="hash-link" href="#id">` (a zero-width space), Jekyll/anchor.js `#`, others `§` or 🔗.
 * A same-page link with words in it ("see below") is the text's own and is kept.
 */
export function isPermalinkMark(href: string | undefined, text: string): boolean {
  if (href === undefined || !href.startsWith("#")) return false;
  const visible = text.replace(/\s|\u200b|\u200c|\u200d|\u2060|\ufeff/gu, "");
  return visible === "" || (visible.length <= 2 && PERMALINK_GLYPH.test(visible));
}

const PERMALINK_GLYPH = /^[\p{P}\p{S}\p{Extended_Pictographic}]+$/u;

/**
 * Separators generators put between a page's title and the site's name: "Page — Project 3.11
 * documentation" (Sphinx), "Page - Site" (MkDocs), "Page | Site" (Docusaurus), "Page · Site",
 * "Page :: Site", "Page » Site". Not a parenthesis: Javadoc's "ArrayList (Java SE 17 & JDK 17)"
 * looks like the LibreOffice help's "Show Details (Pivot Table)", whose parenthesis is the
 * page's own (99 of its 1,672 English titles); telling them apart needs the whole collection.
 */
const SITE_SEPARATORS = [" — ", " – ", " - ", " | ", " · ", " :: ", " » "] as const;

/**
 * The `<title>` without the site's name, when the page's own first heading says what the title's
 * first part says: the part before a separator is kept if the heading contains it. A title the
 * heading does not confirm is kept whole — the rule never guesses which half is the site's. The
 * heading is matched without case and spacing, so "pathlib — Object-oriented filesystem paths —
 * Python 3.11.2 documentation" under the heading "pathlib — Object-oriented filesystem paths"
 * becomes the heading's words.
 */
export function titleWithoutSiteName(
  title: string,
  heading: string | undefined,
  pageText: string | (() => string) = "",
): string {
  if (!heading) return title;
  const said = comparable(heading);
  if (said === "") return title;
  // The page's whole text is normalised only for a title that has a confirmed split (most
  // titles have none): a loader passes it as a function.
  let page: string | undefined;
  const pageWords = () => (page ??= comparable(typeof pageText === "function" ? pageText() : pageText));
  // From the last separator leftwards: the shortest site name that leaves a confirmed title.
  let best: string | undefined;
  for (const separator of SITE_SEPARATORS) {
    const at = title.lastIndexOf(separator);
    if (at <= 0) continue;
    const kept = title.slice(0, at).trim();
    const confirmed = comparable(kept);
    if (confirmed === "" || !said.includes(confirmed)) continue;
    // The page's own subtitle ("Letter Wizard - Printed items") is what its text is about; a
    // site's name ("Python 3.11.2 documentation") is not in the page's text.
    const dropped = comparable(title.slice(at + separator.length));
    if (dropped === "" || pageWords().includes(dropped)) continue;
    if (best === undefined || kept.length > best.length) best = kept;
  }
  return best ?? title;
}

function comparable(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/gu, " ").trim();
}

/**
 * A manual page's running header: its name and section at both ends, the manual's name between
 * ("PASSWD(1)   Dienstprogramme für Benutzer   PASSWD(1)", "LS(1) User Commands LS(1)"). It is
 * the same frame on every page of a manual, never the page's title.
 */
export function isManPageHeader(line: string): boolean {
  return manPageToken(line) !== undefined;
}

/** The `NAME(1)` token a manual page's header starts with, then whitespace. */
const MAN_HEADER_START = /^\s*([^\s()]+\(\d[^\s()]*\))\s/u;
/** A running header is one short line; a longer one is prose (and is not scanned further). */
const MAN_HEADER_MAX_CHARS = 500;

/**
 * The `NAME(1)` token a manual page's header and footer line end with. Checked in linear time
 * (the token at the start, then the same token after whitespace at the end), since the line may
 * be a text file's raw first line.
 */
export function manPageToken(line: string): string | undefined {
  if (line.length > MAN_HEADER_MAX_CHARS) return undefined;
  const start = MAN_HEADER_START.exec(line);
  if (!start) return undefined;
  const token = start[1]!;
  const afterToken = start[0].length - 1;
  const trimmed = line.trimEnd();
  const before = trimmed.length - token.length - 1;
  if (before < afterToken || !trimmed.endsWith(token) || !/\s/u.test(trimmed[before]!)) {
    return undefined;
  }
  // Between the two tokens, one line: only whitespace may break it.
  const between = trimmed.slice(afterToken, before);
  return /[\n\r\u2028\u2029]/u.test(between.trim()) ? undefined : token;
}
