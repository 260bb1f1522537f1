/**
 * prefix-stems: prefix stems against Snowball's, measured where the answer is known. For every
 * lohelp language Snowball can stem (German, French, Spanish, Swedish, Danish, Dutch, Finnish,
 * Russian), the same pages and questions are indexed again with the language's Snowball stemmer,
 * with no stemming at all, and with each word cut to its first N letters (a prefix stem, N = 4…8);
 * everything else of the language's analysis (stopwords, folding, compounds) stays. Each variant is
 * ranked by the ranker itself (rankCollection, as the engine ranks); the product's own index
 * ("shipped") is checked to rank as the variant its profile names.
 *
 * Beside them, every word indexed both as its Snowball stem and as a marked prefix-6 term
 * ("snowball+prefix-6"), so a query meets either; its cost is twice the terms per word.
 *
 * Two choices cite this bench (src/knowledge/analysis/languages.ts):
 * - PREFIX_STEM_LETTERS, the length for languages Snowball cannot stem (Polish, Ukrainian): chosen
 *   by summed hit@5 over the languages (hit@10 breaks ties), and again with each left out;
 * - CASE_RICH_STEMS, the rule that languages whose nouns inflect for many grammatical cases get
 *   prefix stems instead of Snowball's: per case-rich language, prefix-6 against Snowball and
 *   "both", the choice made on the other case-rich languages and measured on the one left out,
 *   and the rule's prediction (prefix stems gain, or not) against every measured language.
 * BENCH_LOHELP_DIR as for lohelp.
 */
import { join } from "node:path";
import { queryTermsFor } from "../src/backends/embedded/embedded-engine.js";
import { readJudgedQuestions } from "../src/evaluation/judged-questions.js";
import { type Analyzer, ComposedAnalyzer } from "../src/knowledge/analysis/analyzer.js";
import {
  analyzerDefinition,
  PREFIX_STEM_LETTERS,
  type SnowballAlgorithm,
} from "../src/knowledge/analysis/languages.js";
import { languageOf } from "../src/knowledge/analysis/registry.js";
import { analyzeDocument, CollectionIndex } from "../src/knowledge/index/collection-index.js";
import { rankCollection } from "../src/knowledge/index/ranker.js";
import { dataDir, fromEngine, type JudgedCollection, MissingData } from "./docbots/collections.js";
import { lohelpBotDir, openLohelpBot } from "./lohelp/bot.js";
import { selectedLanguages } from "./lohelp/languages.js";

export const name = "prefix-stems";
export const timeoutMs = 60 * 60_000;

const LENGTHS = [4, 5, 6, 7, 8] as const;
const LIMIT = 10;
const PREFIX = `prefix-${PREFIX_STEM_LETTERS}`;
const DUAL = `snowball+prefix-${PREFIX_STEM_LETTERS}`;
/**
 * The grammatical cases of each measured language's nouns, as its grammars count them (Swedish
 * and Danish: the basic form and the genitive; French, Spanish and Dutch nouns have none left).
 */
const NOUN_CASES: Readonly<Record<string, number>> = {
  de: 4,
  fr: 0,
  es: 0,
  sv: 2,
  da: 2,
  nl: 0,
  fi: 15,
  ru: 6,
};
/** "Many" cases, as CASE_RICH_STEMS states its rule: more than German's four. */
const MANY_CASES = 5;
const EPSILON = 1e-9;

interface Figures {
  hit5: number;
  hit10: number;
  mrr10: number;
}

interface Row {
  language: string;
  cases: number;
  /** The variant the language's profile names: what the product ships. */
  shipped: string;
  /** Whether the product's own index ranks exactly as that variant. */
  shippedMatches: boolean;
  variants: Record<string, Figures>;
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

/** `tag`'s analysis with its stemming replaced by `stem` (Snowball's, a prefix stem, or none). */
function analyzerWith(
  tag: string,
  stem: { stemmer?: SnowballAlgorithm; prefixStem?: number },
  version: string,
): ComposedAnalyzer {
  const { stemmer: _stemmer, prefixStem: _prefixStem, ...rest } = languageOf(tag)!;
  return new ComposedAnalyzer(analyzerDefinition({ ...rest, ...stem, version }));
}

function indexedWith(index: CollectionIndex, analyzer: Analyzer): CollectionIndex {
  const documents = index.documents.map((d) => analyzeDocument(d, analyzer));
  return new CollectionIndex(index.name, documents, { analysis: index.analysis, queryAnalyzer: analyzer });
}

/** The experiment: each word's Snowball stem, then its prefix stem marked apart ("~" + prefix). */
function withPrefixTerms(tag: string, stemmer: SnowballAlgorithm, letters: number): Analyzer {
  const snowball = analyzerWith(tag, { stemmer }, "bench-snowball");
  const prefix = analyzerWith(tag, { prefixStem: letters }, `bench-${letters}`);
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

const sameFigures = (a: Figures, b: Figures) =>
  Math.abs(a.hit5 - b.hit5) < EPSILON &&
  Math.abs(a.hit10 - b.hit10) < EPSILON &&
  Math.abs(a.mrr10 - b.mrr10) < EPSILON;

/** Whether `a` ranks better than `b` over `rows`: summed hit@5, then summed hit@10. */
function better(rows: readonly Row[], a: string, b: string): boolean {
  const sum = (v: string, f: keyof Figures) => rows.reduce((s, r) => s + r.variants[v]![f], 0);
  const d5 = sum(a, "hit5") - sum(b, "hit5");
  return d5 > EPSILON || (Math.abs(d5) <= EPSILON && sum(a, "hit10") - sum(b, "hit10") > EPSILON);
}

/**
 * The case-rich rule's decision on `rows`: Snowball unless a prefix variant ranks better; then
 * prefix-6 alone unless both stems ranks better on hit@5 on every one of them (both doubles the
 * terms per word, so it must win everywhere to be worth it).
 */
function decide(rows: readonly Row[]): string {
  if (!better(rows, PREFIX, "snowball") && !better(rows, DUAL, "snowball")) return "snowball";
  return rows.every((r) => r.variants[DUAL]!.hit5 > r.variants[PREFIX]!.hit5 + EPSILON) ? DUAL : PREFIX;
}

export async function run() {
  const rows: Row[] = [];
  const skipped: string[] = [];
  for (const language of selectedLanguages()) {
    const tag = language.code.split("-")[0]!;
    // The languages Snowball stems in their own script (English keeps Porter; ja and zh have none).
    if (tag === "en" || language.cjk) continue;
    const stemmer = language.snowball as SnowballAlgorithm;
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
    const profile = languageOf(tag)!;
    const shipped = profile.stemmer
      ? "snowball"
      : profile.prefixStem
        ? `prefix-${profile.prefixStem}`
        : "none";
    const variants: Record<string, Figures> = {
      snowball: figuresOf(indexedWith(own, analyzerWith(tag, { stemmer }, "bench-snowball")), collection),
      none: figuresOf(indexedWith(own, analyzerWith(tag, {}, "bench-none")), collection),
    };
    for (const n of LENGTHS) {
      variants[`prefix-${n}`] = figuresOf(
        indexedWith(own, analyzerWith(tag, { prefixStem: n }, `bench-${n}`)),
        collection,
      );
    }
    variants[DUAL] = figuresOf(
      indexedWith(own, withPrefixTerms(tag, stemmer, PREFIX_STEM_LETTERS)),
      collection,
    );
    const shippedMatches =
      variants[shipped] !== undefined && sameFigures(figuresOf(own, collection), variants[shipped]!);
    rows.push({ language: language.code, cases: NOUN_CASES[tag] ?? 0, shipped, shippedMatches, variants });
  }

  const variantNames = ["snowball", "none", ...LENGTHS.map((n) => `prefix-${n}`), DUAL];
  const sum = (variant: string, figure: keyof Figures) =>
    rows.reduce((s, r) => s + 100 * r.variants[variant]![figure], 0);
  /** The prefix length with the highest summed hit@5 (then hit@10) over the languages but `except`. */
  const choose = (except?: string) => {
    const kept = rows.filter((r) => r.language !== except);
    return LENGTHS.reduce(
      (best, n) => (better(kept, `prefix-${n}`, `prefix-${best}`) ? n : best),
      LENGTHS[0] as number,
    );
  };
  const chosen = choose();
  const leftOut = rows.map((r) => {
    const n = choose(r.language);
    return { language: r.language, chosen: n, hit5There: r.variants[`prefix-${n}`]!.hit5 };
  });

  // The case-rich rule: decided on every case-rich language, and on all but one, measured on it.
  const caseRich = rows.filter((r) => r.cases >= MANY_CASES);
  const caseRichChoice = caseRich.length ? decide(caseRich) : "snowball";
  const caseRichLeftOut = caseRich.map((r) => {
    const others = caseRich.filter((o) => o !== r);
    const decided = others.length ? decide(others) : "snowball";
    return {
      language: r.language,
      decidedOn: others.map((o) => o.language),
      decided,
      snowball: r.variants.snowball!.hit5,
      decidedHit5: r.variants[decided]!.hit5,
      prefixHit5: r.variants[PREFIX]!.hit5,
    };
  });
  const rule = rows.map((r) => {
    const predictsGain = r.cases >= MANY_CASES;
    const gain = r.variants[PREFIX]!.hit5 - r.variants.snowball!.hit5;
    return {
      language: r.language,
      cases: r.cases,
      predictsGain,
      gain,
      right: predictsGain === gain > EPSILON,
    };
  });

  const pct = (x: number) => (100 * x).toFixed(1);
  const signed = (x: number) =>
    `${x > EPSILON ? "+" : x < -EPSILON ? "−" : "±"}${Math.abs(100 * x).toFixed(1)}`;
  const fig = (f: Figures) => `${pct(f.hit5)} / ${pct(f.hit10)} / ${f.mrr10.toFixed(3)}`;
  const markdown = [
    "## prefix-stems: prefix stems against Snowball's, on every Snowball-stemmed lohelp language",
    "",
    "lohelp's answerable questions, default search (rankCollection, top 10); each language's stemming replaced by Snowball's, none, or prefix stems of N letters, the rest of its analysis unchanged. hit@5 / hit@10 / MRR@10. Shipped: the variant the language's profile names, and whether the product's own index ranks exactly as it.",
    "",
    `| language | noun cases | shipped | ${variantNames.join(" | ")} |`,
    `| --- | --: | --- | ${variantNames.map(() => "--:").join(" | ")} |`,
    ...rows.map(
      (r) =>
        `| ${r.language} | ${r.cases} | ${r.shipped}${r.shippedMatches ? "" : " (**differs**)"} | ${variantNames
          .map((v) => fig(r.variants[v]!))
          .join(" | ")} |`,
    ),
    `| **sum of hit@5 / hit@10** | | | ${variantNames.map((v) => `${sum(v, "hit5").toFixed(1)} / ${sum(v, "hit10").toFixed(1)}`).join(" | ")} |`,
    "",
    "### The prefix length (PREFIX_STEM_LETTERS: Polish and Ukrainian, and the case-rich languages)",
    "",
    `Chosen on every language together: **${chosen}** (shipped: PREFIX_STEM_LETTERS = ${PREFIX_STEM_LETTERS}).`,
    "",
    "| left out | length chosen without it | its hit@5 at that length |",
    "| --- | --: | --: |",
    ...leftOut.map((l) => `| ${l.language} | ${l.chosen} | ${pct(l.hit5There)} |`),
    "",
    "### Case-rich languages: prefix stems instead of Snowball's (CASE_RICH_STEMS)",
    "",
    `The rule, stated before the choice: languages whose nouns inflect for many grammatical cases (more than German's 4; here ${caseRich.map((r) => `${r.language} ${r.cases}`).join(", ") || "none measured"}) are better served by prefix stems than by their Snowball stemmer. Between ${PREFIX} alone and ${DUAL} (each word indexed both ways, twice the terms per word), ${PREFIX} unless both is better on hit@5 on every case-rich language.`,
    "",
    `| language | noun cases | snowball | ${PREFIX} | ${DUAL} |`,
    "| --- | --: | --: | --: | --: |",
    ...caseRich.map(
      (r) =>
        `| ${r.language} | ${r.cases} | ${fig(r.variants.snowball!)} | ${fig(r.variants[PREFIX]!)} | ${fig(r.variants[DUAL]!)} |`,
    ),
    "",
    `Decided on every case-rich language: **${caseRichChoice}**.`,
    "",
    "Left out: the rule decided on the other case-rich language(s), measured on the one left out (hit@5).",
    "",
    `| left out | decided on | decision | its snowball | its hit@5 with the decision | gain | its ${PREFIX} | gain |`,
    "| --- | --- | --- | --: | --: | --: | --: | --: |",
    ...caseRichLeftOut.map(
      (l) =>
        `| ${l.language} | ${l.decidedOn.join(", ")} | ${l.decided} | ${pct(l.snowball)} | ${pct(l.decidedHit5)} | ${signed(l.decidedHit5 - l.snowball)} | ${pct(l.prefixHit5)} | ${signed(l.prefixHit5 - l.snowball)} |`,
    ),
    "",
    `The rule against every measured language: it predicts that ${PREFIX} gains hit@5 over Snowball exactly where nouns have many cases.`,
    "",
    `| language | noun cases | predicts a gain | ${PREFIX} − snowball (hit@5) | prediction right |`,
    "| --- | --: | --- | --: | --- |",
    ...rule.map(
      (r) =>
        `| ${r.language} | ${r.cases} | ${r.predictsGain ? "yes" : "no"} | ${signed(r.gain)} | ${r.right ? "yes" : "no"} |`,
    ),
    "",
    `Right on ${rule.filter((r) => r.right).length} of ${rule.length} languages.`,
    "",
    `${DUAL} over every language sums ${sum(DUAL, "hit5").toFixed(1)} / ${sum(DUAL, "hit10").toFixed(1)} against Snowball's ${sum("snowball", "hit5").toFixed(1)} / ${sum("snowball", "hit10").toFixed(1)}, at twice the terms per word; not shipped for the languages with few cases either (where it loses is in the first table).`,
    ...(skipped.length ? ["", `Skipped: ${skipped.join("; ")}`] : []),
  ].join("\n");
  return {
    title: "Prefix stems against Snowball's: every Snowball-stemmed lohelp language, its stemming replaced",
    figures: {
      rows,
      chosen,
      shipped: PREFIX_STEM_LETTERS,
      leftOut,
      manyCases: MANY_CASES,
      caseRichChoice,
      caseRichLeftOut,
      rule,
      skipped,
    },
    markdown,
  };
}
