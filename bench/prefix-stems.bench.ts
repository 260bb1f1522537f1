/**
 * prefix-stems: what a language Snowball has no stemmer for (Polish, Ukrainian) should do instead,
 * measured where the answer is known. For every lohelp language Snowball stems (German, French,
 * Spanish, Swedish, Danish, Dutch, Finnish, Russian), the same pages and questions are indexed
 * again with the stemmer taken out: no stemming at all, or each word cut to its first N letters
 * (a prefix stem, N = 4…8); everything else of the language's analysis (stopwords, folding,
 * compounds) stays. Each variant is ranked by the ranker itself (rankCollection, as the engine
 * ranks), the Snowball one from the product's own index.
 *
 * Beside them, an experiment the product does not ship: every word indexed both as its Snowball
 * stem and as a marked prefix-6 term ("snowball+prefix-6"), so a query meets either; its cost is
 * twice the terms per word.
 *
 * The length is chosen by summed hit@5 over the languages (hit@10 breaks ties), and again with each
 * language left out in turn: languages.ts PREFIX_STEM_LETTERS cites this bench. BENCH_LOHELP_DIR as
 * for lohelp.
 */
import { join } from "node:path";
import { readJudgedQuestions } from "../src/evaluation/judged-questions.js";
import { type Analyzer, LanguageAnalyzer } from "../src/knowledge/analysis/analyzer.js";
import { PREFIX_STEM_LETTERS } from "../src/knowledge/analysis/languages.js";
import { languageOf } from "../src/knowledge/analysis/registry.js";
import { queryTermsFor } from "../src/knowledge/engine.js";
import { analyzeDocument, CollectionIndex } from "../src/knowledge/index/collection-index.js";
import { rankCollection } from "../src/knowledge/index/ranker.js";
import { dataDir, fromEngine, type JudgedCollection, MissingData } from "./docbots/collections.js";
import { lohelpBotDir, openLohelpBot } from "./lohelp/bot.js";
import { selectedLanguages } from "./lohelp/languages.js";

export const name = "prefix-stems";
export const timeoutMs = 60 * 60_000;

const LENGTHS = [4, 5, 6, 7, 8] as const;
const LIMIT = 10;
const DUAL = `snowball+prefix-${PREFIX_STEM_LETTERS}`;

interface Figures {
  hit5: number;
  hit10: number;
  mrr10: number;
}

function figuresOf(index: CollectionIndex, c: JudgedCollection): Figures {
  let hit5 = 0;
  let hit10 = 0;
  let mrr = 0;
  let n = 0;
  for (const q of c.questions) {
    if (!q.answerable) continue;
    n++;
    const ranking = rankCollection(index, queryTermsFor(q.text, index), { rerank: true, limit: LIMIT });
    const rank = ranking.documents.findIndex((d) => q.relevant.has(index.documents[d.document]!.id)) + 1;
    if (rank > 0 && rank <= 5) hit5++;
    if (rank > 0) {
      hit10++;
      mrr += 1 / rank;
    }
  }
  return { hit5: hit5 / n, hit10: hit10 / n, mrr10: mrr / n };
}

/** The collection's documents indexed again with `tag`'s analysis, its stemmer replaced. */
function reindexed(index: CollectionIndex, tag: string, prefixStem: number | undefined): CollectionIndex {
  const profile = languageOf(tag)!;
  const { stemmer: _snowball, ...rest } = profile;
  const analyzer = new LanguageAnalyzer({
    ...rest,
    version: `bench-${prefixStem ?? "none"}`,
    ...(prefixStem ? { prefixStem } : {}),
  });
  return indexedWith(index, analyzer);
}

function indexedWith(index: CollectionIndex, analyzer: Analyzer): CollectionIndex {
  const documents = index.documents.map((d) => analyzeDocument(d, analyzer));
  return new CollectionIndex(index.name, documents, { analysis: index.analysis, queryAnalyzer: analyzer });
}

/** The experiment: each word's Snowball stem, then its prefix stem marked apart ("~" + prefix). */
function withPrefixTerms(tag: string, letters: number): Analyzer {
  const profile = languageOf(tag)!;
  const snowball = new LanguageAnalyzer({ ...profile, version: "bench-snowball" });
  const { stemmer: _snowball, ...rest } = profile;
  const prefix = new LanguageAnalyzer({ ...rest, version: `bench-${letters}`, prefixStem: letters });
  const analyzer: Analyzer = Object.create(snowball);
  analyzer.analyze = (text) => {
    const terms: string[] = [];
    for (const word of snowball.words(text)) {
      const term = snowball.termOf(word);
      if (term === undefined) continue;
      terms.push(term);
      const cut = prefix.termOf(word);
      if (cut !== undefined) terms.push(`~${cut}`);
    }
    return terms;
  };
  return analyzer;
}

export async function run() {
  const rows: { language: string; variants: Record<string, Figures> }[] = [];
  const skipped: string[] = [];
  for (const language of selectedLanguages()) {
    const tag = language.code.split("-")[0]!;
    if (!languageOf(tag)?.stemmer || tag === "en") continue;
    let collection: JudgedCollection;
    try {
      const opened = await openLohelpBot(await lohelpBotDir(language, "tag"));
      const judged = await readJudgedQuestions(join(dataDir, "lohelp", `queries.${language.code}.jsonl`));
      collection = fromEngine(`lohelp-${language.code}`, opened.engine, judged);
    } catch (error) {
      if (!(error instanceof MissingData)) throw error;
      skipped.push(`lohelp-${language.code}: ${error.message}`);
      continue;
    }
    process.stderr.write(`prefix-stems: ${language.code}\n`);
    const own = collection.engine.collectionIndex(collection.engine.collections()[0]!)!;
    const variants: Record<string, Figures> = { snowball: figuresOf(own, collection) };
    variants.none = figuresOf(reindexed(own, tag, undefined), collection);
    for (const n of LENGTHS) variants[`prefix-${n}`] = figuresOf(reindexed(own, tag, n), collection);
    variants[DUAL] = figuresOf(indexedWith(own, withPrefixTerms(tag, PREFIX_STEM_LETTERS)), collection);
    rows.push({ language: language.code, variants });
  }

  const variantNames = ["snowball", "none", ...LENGTHS.map((n) => `prefix-${n}`), DUAL];
  const sum = (variant: string, figure: keyof Figures, except?: string) =>
    rows.filter((r) => r.language !== except).reduce((s, r) => s + 100 * r.variants[variant]![figure], 0);
  /** The prefix length with the highest summed hit@5 (then hit@10) over the languages but `except`. */
  const choose = (except?: string) =>
    LENGTHS.reduce((best, n) => {
      const [a, b] = [`prefix-${n}`, `prefix-${best}`];
      const d5 = sum(a, "hit5", except) - sum(b, "hit5", except);
      return d5 > 1e-9 || (Math.abs(d5) <= 1e-9 && sum(a, "hit10", except) > sum(b, "hit10", except) + 1e-9)
        ? n
        : best;
    }, LENGTHS[0] as number);
  const chosen = choose();
  const leftOut = rows.map((r) => {
    const n = choose(r.language);
    return { language: r.language, chosen: n, hit5There: r.variants[`prefix-${n}`]!.hit5 };
  });
  const pct = (x: number) => (100 * x).toFixed(1);
  const markdown = [
    "## prefix-stems: a language without a stemmer, measured on the languages with one",
    "",
    "lohelp's answerable questions, default search (rankCollection, top 10); each language's Snowball stemmer replaced by no stemming or by prefix stems of N letters, the rest of its analysis unchanged. hit@5 / hit@10 / MRR@10.",
    "",
    `| language | ${variantNames.join(" | ")} |`,
    `| --- | ${variantNames.map(() => "--:").join(" | ")} |`,
    ...rows.map(
      (r) =>
        `| ${r.language} | ${variantNames
          .map((v) => {
            const f = r.variants[v]!;
            return `${pct(f.hit5)} / ${pct(f.hit10)} / ${f.mrr10.toFixed(3)}`;
          })
          .join(" | ")} |`,
    ),
    `| **sum of hit@5 / hit@10** | ${variantNames.map((v) => `${sum(v, "hit5").toFixed(1)} / ${sum(v, "hit10").toFixed(1)}`).join(" | ")} |`,
    "",
    `Prefix length chosen on every language together: **${chosen}** (shipped: PREFIX_STEM_LETTERS = ${PREFIX_STEM_LETTERS}).`,
    "",
    "| left out | length chosen without it | its hit@5 at that length |",
    "| --- | --: | --: |",
    ...leftOut.map((l) => `| ${l.language} | ${l.chosen} | ${pct(l.hit5There)} |`),
    "",
    `Not shipped: ${DUAL} (each word indexed as its Snowball stem and as a marked prefix stem) sums ${sum(DUAL, "hit5").toFixed(1)} / ${sum(DUAL, "hit10").toFixed(1)} against Snowball's ${sum("snowball", "hit5").toFixed(1)} / ${sum("snowball", "hit10").toFixed(1)}, at twice the terms per word; the languages where it loses are listed in the table.`,
    ...(skipped.length ? ["", `Skipped: ${skipped.join("; ")}`] : []),
  ].join("\n");
  return {
    title:
      "Prefix stems for languages without a stemmer: every stemmed lohelp language, its stemmer replaced",
    figures: { rows, chosen, shipped: PREFIX_STEM_LETTERS, leftOut, skipped },
    markdown,
  };
}
