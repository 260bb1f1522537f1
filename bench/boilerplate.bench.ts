/**
 * A site's frame in HTML as published (issue 33, "HTML as published"): navigation, banners,
 * sidebars and footers removed by a general rule, measured on every visible HTML collection —
 * pydocs, lohelp in its eleven languages, the Debian Administrator's Handbook in its nine — for
 * each rule of bench/boilerplate/variants.ts (nothing removed; the loader as it ships; and two
 * broader rules), in one run:
 *
 * - the characters the pages yield (all extracted text) and what the rule saves against `none`;
 * - characters per result: the text the model reads (the full-mode search result as rendered for
 *   it) over every judged question, divided by the hits it holds; and its median per search;
 * - the site's frame in that text: characters per result of lines that recur on many of the
 *   collection's pages as `none` reads them (REPEATED_SHARE; a frame repeats on every page, a
 *   page's own text rarely does), whatever rule removed them;
 * - hit@5 (and hit@10) over the answerable questions, and the questions whose hit@5 a rule
 *   changes against `current`.
 *
 * Each page goes through the product's loader (parseDocumentBytes) after the rule's transform of
 * its markup, and each collection is indexed in memory as a bot indexes it (its `language`: the
 * set's tag, none for pydocs). A rule is worth taking only where its hit@5 is nowhere lower.
 *
 * BOILERPLATE_SETS=pydocs,lohelp,handbook restricts the sets; LOHELP_LANGS / HANDBOOK_LANGS the
 * languages; BOILERPLATE_VARIANTS=none,current,… the rules. The pages come from the same places
 * the docbots, lohelp and debian-handbook suites take them (their build scripts, cached).
 */
import { readFile } from "node:fs/promises";
import { availableParallelism, loadavg } from "node:os";
import { join, relative } from "node:path";
import { glob } from "tinyglobby";
import { KnowledgeEngine } from "../src/backends/embedded/embedded-engine.js";
import { matchesJudgedPath, readJudgedQuestions } from "../src/evaluation/judged-questions.js";
import { percentiles } from "../src/evaluation/percentiles.js";
import { decodeText } from "../src/knowledge/documents/decode-text.js";
import { parseDocumentBytes } from "../src/knowledge/documents/load-document.js";
import type { LoadedDocument } from "../src/knowledge/documents/loaded-document.js";
import { renderSearchResponse } from "../src/knowledge-tool/render.js";
import { type BoilerplateVariant, roundTrip, VARIANTS } from "./boilerplate/variants.js";
import { HANDBOOK } from "./debian-handbook/set.js";
import { dataDir, MissingData, pydocsBotDir } from "./docbots/collections.js";
import { LOHELP } from "./lohelp/languages.js";
import { type MultilingualSet, questionsFile, selectLanguages, setDocsDir } from "./multilingual/set.js";

export const name = "boilerplate";
/** 21 collections, each parsed and indexed once per rule: about 7 minutes on a shared 2-core machine. */
export const timeoutMs = 60 * 60_000;

interface Collection {
  name: string;
  /** The folder holding docs/ (document ids are paths relative to it, as in a bot). */
  root: string;
  questions: string;
  language?: string;
}

interface Figures {
  documents: number;
  textChars: number;
  hit5: number;
  hit10: number;
  charsPerResult: number;
  /** Characters per result of lines that recur across the collection's pages (its frame). */
  repeatedCharsPerResult: number;
  medianCharsPerSearch: number;
  /** Per answerable question: rank of the first answering page in the top 10 (0: none). */
  ranks: Record<string, number>;
}

interface CollectionResult {
  collection: string;
  answerable: number;
  /** Pages whose extracted text a parse-and-serialise that changes nothing alters (0 expected). */
  roundTripChanges: number;
  variants: Record<string, Figures>;
}

const median = (values: number[]) => (values.length ? percentiles(values, [50])[0]! : 0);

/** A line on at least this share of a collection's pages (and on REPEATED_PAGES) is its frame. */
const REPEATED_SHARE = 0.1;
const REPEATED_PAGES = 5;

const linesOf = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0);

/** The lines (trimmed) that recur on many of these pages: the frame a site repeats around each. */
function repeatedLines(documents: readonly LoadedDocument[]): Set<string> {
  const pages = new Map<string, number>();
  for (const doc of documents) {
    for (const line of new Set(linesOf(doc.text))) pages.set(line, (pages.get(line) ?? 0) + 1);
  }
  const least = Math.max(REPEATED_PAGES, REPEATED_SHARE * documents.length);
  return new Set([...pages].filter(([, n]) => n >= least).map(([line]) => line));
}

async function collections(): Promise<{ list: Collection[]; skipped: string[] }> {
  const sets = (process.env.BOILERPLATE_SETS ?? "pydocs,lohelp,handbook").split(",").map((s) => s.trim());
  const list: Collection[] = [];
  const skipped: string[] = [];
  const add = async (label: string, make: () => Promise<Collection | Collection[]>) => {
    try {
      list.push(...[await make()].flat());
    } catch (error) {
      if (!(error instanceof MissingData)) throw error;
      skipped.push(`${label}: ${error.message}`);
    }
  };
  if (sets.includes("pydocs")) {
    await add("pydocs", async () => ({
      name: "pydocs",
      root: await pydocsBotDir(),
      questions: join(dataDir, "pydocs", "queries.jsonl"),
    }));
  }
  const ofSet = (set: MultilingualSet, label: string) =>
    add(label, async () => {
      const out: Collection[] = [];
      for (const language of selectLanguages(set)) {
        const docs = await setDocsDir(set, language);
        out.push({
          name: `${label} ${language.code}`,
          root: join(docs, ".."),
          questions: questionsFile(set, language.code),
          language: language.tag,
        });
      }
      return out;
    });
  if (sets.includes("lohelp")) await ofSet(LOHELP, "lohelp");
  if (sets.includes("handbook")) await ofSet(HANDBOOK, "handbook");
  return { list, skipped };
}

function selectedVariants(): readonly BoilerplateVariant[] {
  const wanted = process.env.BOILERPLATE_VARIANTS?.split(",").map((v) => v.trim());
  if (!wanted) return VARIANTS;
  const unknown = wanted.filter((w) => !VARIANTS.some((v) => v.name === w));
  if (unknown.length) throw new Error(`BOILERPLATE_VARIANTS: unknown ${unknown.join(", ")}`);
  // `current` is what every other rule is compared with; `none` says what a page's frame is.
  return VARIANTS.filter((v) => v.name === "none" || v.name === "current" || wanted.includes(v.name));
}

/** The page's markup as UTF-8 bytes after `transform` (the sets are UTF-8; another charset is refused). */
function transformed(path: string, bytes: Uint8Array, transform: (html: string) => string): Uint8Array {
  const decoded = decodeText(bytes, { html: true });
  if (!decoded.ok) throw new Error(`${path}: ${decoded.reason}`);
  const text = Buffer.from(bytes).toString("utf8");
  if (decoded.text !== text.replace(/^\uFEFF/, "")) throw new Error(`${path} is not UTF-8`);
  return Buffer.from(transform(decoded.text), "utf8");
}

async function load(path: string, id: string, bytes: Uint8Array): Promise<LoadedDocument | undefined> {
  const loaded = await parseDocumentBytes(path, id, { bytes });
  return loaded.ok ? loaded.doc : undefined;
}

async function measure(
  collection: Collection,
  variants: readonly BoilerplateVariant[],
): Promise<CollectionResult> {
  const files = (await glob(["docs/**/*.html"], { cwd: collection.root, absolute: true })).sort();
  const pages = await Promise.all(files.map(async (file) => ({ file, bytes: await readFile(file) })));
  const judged = await readJudgedQuestions(collection.questions);
  const answerable = judged.filter((q) => q.kind === "answerable");
  const result: CollectionResult = {
    collection: collection.name,
    answerable: answerable.length,
    roundTripChanges: 0,
    variants: {},
  };
  let repeated: Set<string> | undefined;
  for (const variant of variants) {
    const documents: LoadedDocument[] = [];
    for (const { file, bytes } of pages) {
      const id = relative(collection.root, file).split("\\").join("/");
      const doc = await load(
        file,
        id,
        variant.transform ? transformed(file, bytes, variant.transform) : bytes,
      );
      if (!doc) continue;
      documents.push(doc);
      if (variant.name === "current") {
        const again = await load(file, id, transformed(file, bytes, roundTrip));
        if (again?.text !== doc.text) result.roundTripChanges++;
      }
    }
    // Variants run in VARIANTS' order, `none` first: its pages hold the whole frame.
    repeated ??= repeatedLines(documents);
    const engine = KnowledgeEngine.fromDocuments(
      { docs: documents },
      collection.language ? { language: collection.language } : {},
    );
    const ranks: Record<string, number> = {};
    const rendered: number[] = [];
    let chars = 0;
    let repeatedChars = 0;
    let hits = 0;
    for (const question of judged) {
      const response = engine.searchSync({ query: question.text });
      const text = renderSearchResponse(response, { brief: false });
      rendered.push(text.length);
      chars += text.length;
      for (const line of linesOf(text)) if (repeated.has(line)) repeatedChars += line.length;
      hits += response.results.length;
      if (question.kind !== "answerable") continue;
      const rank = response.results
        .slice(0, 10)
        .findIndex((hit) => question.relevant.some((p) => matchesJudgedPath(hit.id, p)));
      ranks[question.id] = rank + 1;
    }
    const hit = (k: number) =>
      answerable.filter((q) => ranks[q.id]! > 0 && ranks[q.id]! <= k).length / (answerable.length || 1);
    result.variants[variant.name] = {
      documents: documents.length,
      textChars: documents.reduce((n, d) => n + d.text.length, 0),
      hit5: hit(5),
      hit10: hit(10),
      charsPerResult: hits ? Math.round(chars / hits) : 0,
      repeatedCharsPerResult: hits ? Number((repeatedChars / hits).toFixed(1)) : 0,
      medianCharsPerSearch: Math.round(median(rendered)),
      ranks,
    };
    const f = result.variants[variant.name]!;
    process.stderr.write(
      `boilerplate: ${collection.name} ${variant.name}: ${f.documents} pages, ${f.textChars} chars, hit@5 ${(100 * f.hit5).toFixed(1)}, ${f.charsPerResult} chars per result\n`,
    );
  }
  return result;
}

/** Questions whose hit@5 differs from `current`'s: "+id" now in the top 5, "-id" no longer. */
function changed(result: CollectionResult, variant: string): string[] {
  const base = result.variants.current!.ranks;
  const ranks = result.variants[variant]!.ranks;
  const in5 = (r: number | undefined) => r !== undefined && r > 0 && r <= 5;
  return Object.keys(base)
    .filter((id) => in5(base[id]) !== in5(ranks[id]))
    .map((id) => `${in5(ranks[id]) ? "+" : "-"}${id}`);
}

export async function run() {
  const loadAtStart = loadavg()[0]!;
  const variants = selectedVariants();
  const { list, skipped } = await collections();
  const results: CollectionResult[] = [];
  for (const collection of list) results.push(await measure(collection, variants));
  const pct = (x: number) => (100 * x).toFixed(1);
  const saved = (r: CollectionResult, v: string) => {
    const none = r.variants.none?.textChars;
    return none ? `${pct(1 - r.variants[v]!.textChars / none)} %` : "–";
  };
  const rows = results.flatMap((r) =>
    variants.map((v) => {
      const f = r.variants[v.name]!;
      const diff = v.name === "current" ? "" : changed(r, v.name).join(" ");
      return `| ${r.collection} | ${v.name} | ${f.documents} | ${f.textChars.toLocaleString("en")} | ${saved(r, v.name)} | ${f.charsPerResult} | ${f.repeatedCharsPerResult} | ${f.medianCharsPerSearch} | ${pct(f.hit5)} | ${pct(f.hit10)} | ${diff} |`;
    }),
  );
  const verdicts = variants
    .filter((v) => v.name !== "current")
    .map((v) => {
      const lower = results.filter((r) => r.variants[v.name]!.hit5 < r.variants.current!.hit5);
      const higher = results.filter((r) => r.variants[v.name]!.hit5 > r.variants.current!.hit5);
      return `- **${v.name}** against current: hit@5 lower on ${lower.length} of ${results.length} collections${lower.length ? ` (${lower.map((r) => r.collection).join(", ")})` : ""}, higher on ${higher.length}${higher.length ? ` (${higher.map((r) => r.collection).join(", ")})` : ""}.`;
    });
  const frameLower = results.filter(
    (r) => r.variants.current!.repeatedCharsPerResult < r.variants.none!.repeatedCharsPerResult,
  );
  const frameVerdict = `- **current** against none: frame characters per result lower on ${frameLower.length} of ${results.length} collections${
    frameLower.length < results.length
      ? ` (not on ${results
          .filter((r) => !frameLower.includes(r))
          .map((r) => r.collection)
          .join(", ")})`
      : ""
  }.`;
  const roundTrip = results.filter((r) => r.roundTripChanges > 0);
  const markdown = [
    `Every page of each collection through the product's loader after the rule's transform of its markup, indexed in memory as a bot indexes it; every judged question searched once (full mode, 10 hits). Characters per result: the rendered result the model reads, summed over the questions, over the hits it held. Frame characters per result: the same for the lines of that text that recur on at least ${REPEATED_SHARE * 100} % of the collection's pages (and ${REPEATED_PAGES}) as \`none\` reads them: the site's frame, whichever rule removed it. Saved: the pages' extracted characters against \`none\`. Changed: the questions whose hit@5 differs from \`current\` (+ now in the top 5, − no longer).`,
    "",
    ...variants.map((v) => `- \`${v.name}\`: ${v.rule}`),
    "",
    "| collection | rule | pages | extracted chars | saved | chars per result | frame chars per result | median chars per search | hit@5 | hit@10 | changed hit@5 |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ...rows,
    "",
    ...verdicts,
    frameVerdict,
    roundTrip.length
      ? `\nA parse and serialisation that changes nothing altered the text of pages in ${roundTrip.map((r) => `${r.collection} (${r.roundTripChanges})`).join(", ")}: those collections' transformed rules carry that difference too.`
      : "\nA parse and serialisation that changes nothing leaves every page's text as it was: the transforms differ from `current` by their rule alone.",
    ...(skipped.length ? ["", `Skipped: ${skipped.join("; ")}.`] : []),
    "",
    `Load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end, on ${availableParallelism()} cores.`,
  ].join("\n");
  return {
    title: "HTML frame removal: characters and hit@5 per rule on every HTML collection",
    figures: { variants: variants.map(({ name, rule }) => ({ name, rule })), results, skipped },
    markdown,
  };
}
