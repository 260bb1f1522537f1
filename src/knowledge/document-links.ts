// Where a collection's documents are published, so a hit can name the page people open rather
// than a file path: a document's own address (Markdown front matter `url`, HTML
// `<link rel="canonical">`), else the collection's `url` template (`knowledge.collections.<name>.url`)
// filled with the document's path. Addresses from documents are untrusted text: only a safe
// http(s) URL is kept (src/knowledge-tool/safe-url.ts); anything else is dropped.
import { isDynamicPattern } from "tinyglobby";
import { safeHttpUrl } from "../knowledge-tool/safe-url.js";
import type { Doc, Hit, SearchResponse } from "../types.js";
import { documentFormatFor } from "./documents/document-format.js";
import { isSafeAnchor } from "./documents/section-anchor.js";

/** The placeholder a template must hold: the document's path under the collection's root. */
export const PATH_PLACEHOLDER = "{path}";

/** A collection's `url` setting as config.json holds it (src/bots/config-schema.ts). */
export type CollectionLinkSetting =
  | string
  | {
      template: string;
      /** File extension (with the dot) → what the published page ends with instead ("" drops it). */
      extensions?: Record<string, string>;
      /** The folder `{path}` is relative to, relative to the bot folder; default: the static folder its paths share. */
      root?: string;
    };

/** Why a template cannot be used, or undefined when it can (the schema's check). */
export function templateProblem(template: string): string | undefined {
  if (!template.includes(PATH_PLACEHOLDER)) {
    return `must contain ${PATH_PLACEHOLDER}, where the document's path goes (e.g. "https://docs.example.com/${PATH_PLACEHOLDER}")`;
  }
  if (safeHttpUrl(template.replaceAll(PATH_PLACEHOLDER, "x")) === undefined) {
    return "must be an http:// or https:// address (without a user name or password)";
  }
  return undefined;
}

/**
 * The folder every glob of a collection starts in (the segments before the first wildcard, as
 * tinyglobby, which expands them, reads one; common to all of them), with forward slashes; ""
 * when they share none. A glob without any wildcard names a file, whose folder counts.
 */
export function staticRoot(paths: readonly string[]): string {
  let common: string[] | undefined;
  for (const path of paths) {
    const segments = path.replace(/^\.\//, "").split("/");
    const firstWild = segments.findIndex((s) => isDynamicPattern(s));
    const folder = firstWild === -1 ? segments.slice(0, -1) : segments.slice(0, firstWild);
    if (common === undefined) common = folder;
    else {
      let i = 0;
      while (i < common.length && i < folder.length && common[i] === folder[i]) i++;
      common = common.slice(0, i);
    }
  }
  return (common ?? []).join("/");
}

interface CollectionLinks {
  template: string;
  extensions: ReadonlyMap<string, string>;
  root: string;
}

/**
 * The longest listed extension the file's name ends with, after at least one other character
 * (`.md.gz` before `.gz`; a file named `.md` has none), in lower case as listed.
 */
function listedExtension(path: string, extensions: ReadonlyMap<string, string>): string | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  let longest: string | undefined;
  for (const extension of extensions.keys()) {
    if (
      name.length > extension.length &&
      name.endsWith(extension) &&
      extension.length > (longest?.length ?? 0)
    ) {
      longest = extension;
    }
  }
  return longest;
}

/** The addresses of a bot's documents: their own, else their collection's template filled. */
export class DocumentLinks {
  private constructor(private readonly collections: ReadonlyMap<string, CollectionLinks>) {}

  /** From a bot's `knowledge.collections` (each with its `paths` and optional `url`). */
  static of(
    collections: Readonly<
      Record<string, { paths: readonly string[]; url?: CollectionLinkSetting | undefined }>
    >,
  ): DocumentLinks {
    const byName = new Map<string, CollectionLinks>();
    for (const [name, collection] of Object.entries(collections)) {
      const setting = collection.url;
      if (setting === undefined) continue;
      const {
        template,
        extensions = {},
        root,
      } = typeof setting === "string" ? { template: setting } : setting;
      byName.set(name, {
        template,
        extensions: new Map(Object.entries(extensions).map(([from, to]) => [from.toLowerCase(), to])),
        root: (root ?? staticRoot(collection.paths)).replace(/^\.\/?/, "").replace(/\/+$/, ""),
      });
    }
    return new DocumentLinks(byName);
  }

  /** The address of document `id` (its path relative to the bot folder) in `collection`. */
  linkFor(collection: string, id: string, own?: string): string | undefined {
    const mine = safeHttpUrl(own);
    if (mine !== undefined) return mine;
    const links = this.collections.get(collection);
    if (!links) return undefined;
    let path = links.root && id.startsWith(`${links.root}/`) ? id.slice(links.root.length + 1) : id;
    const extension = listedExtension(path, links.extensions);
    if (extension !== undefined) path = path.slice(0, -extension.length) + links.extensions.get(extension);
    const encoded = path.split("/").map(encodeURIComponent).join("/");
    return safeHttpUrl(links.template.replaceAll(PATH_PLACEHOLDER, encoded));
  }

  /**
   * The response with every hit's address set (or dropped when unsafe); the rest untouched. The
   * same object when no hit's address changes (a bot without templates whose hits carry none).
   */
  linkResponse(response: SearchResponse): SearchResponse {
    const results = response.results.map((hit) => this.linked(hit, hit));
    return results.every((hit, i) => hit === response.results[i]) ? response : { ...response, results };
  }

  linkDocument(doc: Doc): Doc {
    return this.linked(doc);
  }

  /**
   * `item` with its address set or dropped — at the place in the document where `at`, a hit,
   * starts (atSection) — and `item` itself when that changes nothing.
   */
  private linked<T extends Hit | Doc>(item: T, at?: Hit): T {
    // Nothing to check and nothing to fill: no address of its own, no template for its collection.
    if (item.url === undefined && !this.collections.has(item.collection)) return item;
    const { url: own, ...rest } = item;
    const found = this.linkFor(item.collection, item.id, own);
    const url = found === undefined || at === undefined ? found : atSection(found, at);
    if (url === own) return item;
    return (url === undefined ? rest : { ...rest, url }) as T;
  }
}

/**
 * The formats whose section anchors are the ids of the published page: a web page's own, and
 * a Markdown page's explicit `{#id}` (never a slug). An EPUB chapter's ids name no page a link
 * can open.
 */
const PAGES_WITH_IDS: ReadonlySet<string> = new Set(["html", "markdown", "mdx"]);

/**
 * A hit's address opened where its section starts: a PDF's at its first page (atPage), a web
 * page's at its section's heading (`guide.html#sect.apt`, the id the page itself gives it:
 * heading-anchor.ts, or a Markdown heading's `{#id}`: section-anchor.ts). An address that names a
 * fragment already is its author's and is kept.
 */
export function atSection(url: string, hit: Pick<Hit, "id" | "pages" | "anchor">): string {
  if (hit.pages !== undefined) return atPage(url, hit.pages.start);
  if (!isSafeAnchor(hit.anchor) || !PAGES_WITH_IDS.has(documentFormatFor(hit.id) ?? "") || url.includes("#"))
    return url;
  // Still a link people follow: bounded as every address is (an address near the bound keeps its page).
  return safeHttpUrl(`${url}#${encodeURIComponent(hit.anchor)}`) ?? url;
}

/**
 * A PDF's address opened at `page`: the `#page=` fragment of RFC 8118, which the PDF viewers of
 * Chrome, Edge and Firefox and Acrobat open at, so a cited hit lands on the page it
 * quotes. Any other address, one that names a fragment already, or a page that is not a positive
 * whole number is returned as it is.
 */
export function atPage(url: string, page: number): string {
  if (!Number.isSafeInteger(page) || page < 1) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.hash !== "" || url.includes("#") || !parsed.pathname.toLowerCase().endsWith(".pdf")) return url;
  return safeHttpUrl(`${url}#page=${page}`) ?? url;
}
