import type { DocSection } from "../../types.js";

/**
 * One run of a document between two headings, in document order: what every format parser
 * produces first. `level` is the heading's own level (1–6); 0 marks text before any heading.
 */
export interface SectionBucket {
  level: number;
  heading?: string;
  content: string;
  /** The id of the heading in its page, which a link opens at (heading-anchor.ts). */
  anchor?: string;
}

/**
 * Turns document-order buckets into flattened sections with heading paths.
 *
 * Nesting follows the shared hierarchy builder: a heading hangs under the nearest earlier
 * heading with a strictly smaller level, so a skipped level (H1 then H3) still nests one
 * deep and `level` is the depth in the tree, not the raw heading level. `headingPath`
 * starts with the document title; when the top heading *is* the title (the usual `# Title`)
 * it is not repeated. A preamble without content is dropped: it carries nothing to index.
 */
export function buildSections(title: string, buckets: readonly SectionBucket[]): DocSection[] {
  const sections: DocSection[] = [];
  const open: { level: number; heading: string }[] = [];
  for (const bucket of buckets) {
    if (bucket.level <= 0 || bucket.heading === undefined) {
      if (bucket.content === "") continue;
      sections.push({ headingPath: [title], level: 0, content: bucket.content });
      continue;
    }
    while (open.length > 0 && open[open.length - 1]!.level >= bucket.level) open.pop();
    open.push({ level: bucket.level, heading: bucket.heading });
    sections.push({
      headingPath: pathFromTitle(
        title,
        open.map((o) => o.heading),
      ),
      heading: bucket.heading,
      level: open.length,
      content: bucket.content,
      ...(bucket.anchor !== undefined ? { anchor: bucket.anchor } : {}),
    });
  }
  return sections;
}

function pathFromTitle(title: string, chain: string[]): string[] {
  const first = chain[0];
  if (first !== undefined && sameHeading(first, title)) return [title, ...chain.slice(1)];
  return [title, ...chain];
}

function sameHeading(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
