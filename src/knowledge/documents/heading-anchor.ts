// Where in a published page a section starts: the id of its heading, which a link to the page
// opens at (`guide.html#install-rules`), so a hit cited in Slack or Teams lands on the section
// it quotes rather than the top of a long page. Ids are taken from the page as its generator
// wrote them — never made up from the heading's words, whose slug rules differ by generator.

import type { HTMLElement } from "node-html-parser";
import { isPermalinkMark } from "./page-chrome.js";
import { percentDecoded } from "./percent-decoding.js";
import { isSafeAnchor } from "./section-anchor.js";

/**
 * The id a link to `heading`'s section opens at: the heading's own `id` (MkDocs, Hugo, Docusaurus,
 * GitHub's HTML), else that of an `<a id>` or `<a name>` inside it (DocBook: `<h2><a id="sect.apt">`),
 * else the target of a permalink mark inside it (`<a class="headerlink" href="#id">¶</a>`), else
 * the id of the `<section>` or `<div>` the heading opens (Sphinx). Undefined when none is safe.
 */
export function headingAnchor(heading: HTMLElement): string | undefined {
  const own = heading.getAttribute("id");
  if (isSafeAnchor(own)) return own;
  for (const link of heading.querySelectorAll("a")) {
    const named = link.getAttribute("id") ?? link.getAttribute("name");
    if (isSafeAnchor(named)) return named;
    const href = link.getAttribute("href");
    if (isPermalinkMark(href, link.text)) {
      const target = percentDecoded(href!.slice(1));
      if (isSafeAnchor(target)) return target;
    }
  }
  const parent = heading.parentNode as HTMLElement | null;
  const tag = parent?.tagName?.toLowerCase();
  if ((tag === "section" || tag === "div") && parent!.firstElementChild === heading) {
    const id = parent!.getAttribute("id");
    if (isSafeAnchor(id)) return id;
  }
  return undefined;
}
