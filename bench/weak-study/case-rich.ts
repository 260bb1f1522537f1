/**
 * The weak flag in the case-rich languages (Russian, Finnish; not a suite of `npm run bench`):
 *
 *   npx tsx bench/weak-study/case-rich.ts            # lohelp ru and fi, the handbook's ru-ru
 *   WANT=lohelp/ru,lohelp/de npx tsx bench/weak-study/case-rich.ts
 *
 * Per collection, the weak flag's input (the best hit's calibrated relevance) over the judged
 * questions: hit@5, its AUC for "an answer is in the top 5", false alarms (answered searches below
 * WEAK_BEST_SCORE) and unanswerable questions flagged; and, over the answered searches, the share
 * of what the query could score that sits on words no section holds (they keep the largest idf, so
 * they weigh most in normalizedScore and keyTermScore), and the most unanswerable questions any one
 * weak line flags with false alarms within 35 % (what a per-analyzer shift of the line could reach
 * at best). Each row is one analysis or one query-side
 * change, the collection indexed again with it and ranked by the ranker itself (rankCollection):
 * - shipped: the language's profile, with a whole word in a form no section holds searched by its
 *   held form as the engine does (src/knowledge/ranking-core/unseen-forms.ts);
 * - snowball: Snowball's stemmer instead of the prefix stem;
 * - snowball+prefix-N: Snowball's stem cut to N letters, so a word of six letters or fewer loses
 *   its ending too ("ячейка", "ячейки", "ячейку" meet);
 * - stopwords+: Russian only, the case forms of the pronouns Snowball's list names in some forms
 *   ("мою", "моей", "которые", "это");
 * - unknown-prefix-N: query side only, a word no section holds replaced by the most frequent
 *   indexed term sharing its first N letters (any word, whatever its length; on top of shipped).
 */

import { tmpdir } from "node:os";
import { join } from "node:path";
import { queryTermsFor } from "../../src/backends/embedded/embedded-engine.js";
import { readJudgedQuestions } from "../../src/evaluation/judged-questions.js";
import { rocAuc } from "../../src/evaluation/metrics.js";
import { type Analyzer, ComposedAnalyzer } from "../../src/knowledge/analysis/analyzer.js";
import { analyzerDefinition, type SnowballAlgorithm } from "../../src/knowledge/analysis/languages.js";
import { languageOf } from "../../src/knowledge/analysis/registry.js";
import { prefixStem } from "../../src/knowledge/analysis/text-analyzer.js";
import { analyzeDocument, CollectionIndex } from "../../src/knowledge/index/collection-index.js";
import { rankCollection } from "../../src/knowledge/index/ranker.js";
import { calibratedRelevance } from "../../src/knowledge/relevance.js";
import { relevanceFeatures } from "../../src/knowledge/relevance-features.js";
import { WEAK_BEST_SCORE } from "../../src/weakness.js";
import { HANDBOOK } from "../debian-handbook/set.js";
import { fromEngine, type JudgedCollection } from "../docbots/collections.js";
import { LOHELP } from "../lohelp/languages.js";
import { openSetBot, questionsFile, setBotDir } from "../multilingual/set.js";

const root = process.env.QUICK_DIR ?? join(tmpdir(), "second-look-quick");
const FALSE_ALARMS_AT_MOST = 0.35;
const WANT = (process.env.WANT ?? "lohelp/ru,lohelp/fi,debian-handbook/ru-ru").split(",");

/** The case forms of the pronouns Snowball's Russian list holds only some forms of. */
const RUSSIAN_PRONOUN_FORMS = (
  "моего моему моим моём мое моё мои моих моими мою моей своего своему своим своём свое своё свои " +
  "своих своими своя своей свой это эта этим этих этими тот та те тех тому той весь вся всё всем всеми " +
  "всей который которая которое которые которого которой которому котором которую которых которым которыми"
).split(" ");

function analyzerOf(tag: string, stemmer: SnowballAlgorithm, variant: string): Analyzer {
  const profile = languageOf(tag)!;
  const { stemmer: _stemmer, prefixStem: _prefix, ...rest } = profile;
  if (variant === "snowball")
    return new ComposedAnalyzer(analyzerDefinition({ ...rest, stemmer, version: variant }));
  if (variant === "stopwords+") {
    return new ComposedAnalyzer(
      analyzerDefinition({
        ...profile,
        stopwords: [...profile.stopwords, ...RUSSIAN_PRONOUN_FORMS],
        version: variant,
      }),
    );
  }
  const letters = Number(variant.split("-").at(-1));
  const definition = analyzerDefinition({ ...rest, stemmer, version: variant });
  const filters = definition.filters.flatMap((f) => (f.kind === "snowball" ? [f, prefixStem(letters)] : [f]));
  return new ComposedAnalyzer({ ...definition, id: `${tag}-${variant}`, filters });
}

/** `terms` with each one the index lacks replaced by its most frequent term sharing `letters` letters. */
function withUnknownPrefix(index: CollectionIndex, terms: readonly string[], letters: number): string[] {
  const lexical = index.lexical;
  return terms.map((term) => {
    if (lexical.termId(term) !== undefined || term.length < letters) return term;
    const prefix = term.slice(0, letters);
    let pick: { term: string; df: number } | undefined;
    for (let id = 0; id < lexical.vocabularySize; id++) {
      const candidate = lexical.term(id);
      const df = lexical.documentFrequency(id);
      if (candidate.startsWith(prefix) && (!pick || df > pick.df)) pick = { term: candidate, df };
    }
    return pick?.term ?? term;
  });
}

function figures(index: CollectionIndex, c: JudgedCollection, termsOf: (text: string) => string[]): string {
  const best: number[] = [];
  const answered: boolean[] = [];
  const unanswerable: boolean[] = [];
  const unknownShares: number[] = [];
  for (const q of c.questions) {
    const ranking = rankCollection(index, termsOf(q.text), { rerank: true, limit: 10 });
    const features = relevanceFeatures(ranking);
    best.push(features[0] ? calibratedRelevance(features[0]) : 0);
    const rank = ranking.documents.findIndex((d) => q.relevant.has(index.documents[d.document]!.id));
    const isAnswered = q.answerable && rank >= 0 && rank < 5;
    answered.push(isAnswered);
    unanswerable.push(!q.answerable);
    if (isAnswered) {
      const weights = ranking.stats.map((s) => s.idf * s.queryFrequency);
      const total = weights.reduce((a, b) => a + b, 0) || 1;
      unknownShares.push(
        ranking.stats.reduce((a, s, i) => a + (s.documentFrequency === 0 ? weights[i]! : 0), 0) / total,
      );
    }
  }
  const share = (flags: readonly boolean[], of: readonly boolean[]) =>
    flags.filter((f, i) => f && of[i]).length / Math.max(1, of.filter(Boolean).length);
  const weak = best.map((b) => b < WEAK_BEST_SCORE);
  const answerable = c.questions.map((q) => q.answerable);
  const mean = unknownShares.reduce((a, b) => a + b, 0) / Math.max(1, unknownShares.length);
  // The most unanswerable questions any one line flags with false alarms within the goal: a line
  // per analyzer (a log-odds shift) can do no better than this.
  let ceiling = 0;
  for (const line of new Set(best)) {
    const below = best.map((b) => b < line);
    if (share(below, answered) <= FALSE_ALARMS_AT_MOST)
      ceiling = Math.max(ceiling, share(below, unanswerable));
  }
  const pct = (x: number) => (100 * x).toFixed(0).padStart(3);
  return (
    `hit@5 ${pct(share(answered, answerable))}  AUC ${rocAuc(best, answered).toFixed(3)}  ` +
    `false alarms ${pct(share(weak, answered))}  unanswerable flagged ${pct(share(weak, unanswerable))}  ` +
    `unknown-word share (answered) ${pct(mean)}  best unanswerable flagged by any line within ${pct(FALSE_ALARMS_AT_MOST)} % false alarms ${pct(ceiling)}`
  );
}

for (const set of [LOHELP, HANDBOOK]) {
  for (const language of set.languages) {
    if (!WANT.includes(`${set.name}/${language.code}`)) continue;
    const tag = language.code.split("-")[0]!;
    const dir = await setBotDir(set, language, "tag", join(root, `${set.name}-${language.code}-tag`));
    const judged = await readJudgedQuestions(questionsFile(set, language.code));
    const opened = await openSetBot(dir);
    try {
      const c = fromEngine(language.code, opened.engine, judged);
      const own = opened.engine.collectionIndex(opened.engine.collections()[0]!)!;
      const row = (variant: string, text: string) =>
        process.stdout.write(`${set.name}/${language.code} ${variant.padEnd(18)} ${text}\n`);
      row(
        "shipped",
        figures(own, c, (text) => queryTermsFor(text, own)),
      );
      const prefixed = Boolean(languageOf(tag)?.prefixStem);
      const variants = [
        ...(prefixed ? ["snowball", "snowball+prefix-5", "snowball+prefix-6", "snowball+prefix-7"] : []),
        ...(tag === "ru" ? ["stopwords+"] : []),
      ];
      for (const variant of variants) {
        const analyzer = analyzerOf(tag, language.snowball as SnowballAlgorithm, variant);
        const index = new CollectionIndex(
          own.name,
          own.documents.map((d) => analyzeDocument(d, analyzer)),
          { analysis: own.analysis, queryAnalyzer: analyzer },
        );
        row(
          variant,
          figures(index, c, (text) => queryTermsFor(text, index, analyzer)),
        );
      }
      for (const letters of [5, 4]) {
        row(
          `unknown-prefix-${letters}`,
          figures(own, c, (text) => withUnknownPrefix(own, queryTermsFor(text, own), letters)),
        );
      }
    } finally {
      await opened.close();
    }
  }
}
