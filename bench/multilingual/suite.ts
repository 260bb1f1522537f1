/**
 * A multilingual documentation set's suite (lohelp, the Debian Administrator's Handbook): the
 * same judged questions in every language of the set, per language in one run: our default
 * search and first pass over the pages as the product loads them (the bot's config.json opened
 * by the path `second-look eval` takes; its collection's `language` set by
 * <P>_LANGUAGE=none|tag|auto|en), beside English-only and language-aware lexical peers indexing
 * the same extracted text; the English-only engine (a committed result file of the set, or the
 * same pages with `language: "en"` in the same run); our weak flag and the signal grader's
 * corrective pass (the product's eval, `signal` setting); and index and query time per MB of
 * text. Figures as the lohelp data README defines them.
 *
 * <P>_LANGS=de,ja restricts the languages; BENCH_<P>_DIR=<folder of <lang>/docs> reuses prebuilt
 * pages (else the set's build-bot.sh builds them into a cache folder, BENCH_<P>_CACHE).
 */
import { existsSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import type { KnowledgeEngine } from "../../src/backends/embedded/embedded-engine.js";
import { indexDirectory } from "../../src/backends/embedded/open-embedded.js";
import { loadBotFromDir } from "../../src/bots/discovery.js";
import { weakFlagFigures } from "../../src/evaluation/calibration-fit.js";
import { evaluateBot, type SettingReport } from "../../src/evaluation/evaluate-bot.js";
import { readJudgedQuestions } from "../../src/evaluation/judged-questions.js";
import { percentiles } from "../../src/evaluation/percentiles.js";
import { renderSearchResponse } from "../../src/knowledge-tool/render.js";
import { fromEngine, type JudgedCollection, MissingData } from "../docbots/collections.js";
import { Fts5Peer } from "../peers/fts5.js";
import { bigramTokens, isCjkToken, peerAnalysis } from "../peers/language-analysis.js";
import { MiniSearchPeer } from "../peers/minisearch.js";
import type { Peer } from "../peers/peer.js";
import {
  type LanguageMode,
  languageKeySupported,
  languageMode,
  type MultilingualSet,
  openSetBot,
  questionsFile,
  type SetLanguage,
  selectLanguages,
  setBotDir,
} from "./set.js";

const TOP_K = 10;
/** Timed passes over the questions (after an untimed one) for the query p50. */
const TIMED_PASSES = 3;
/** Fresh index builds per language; the median is reported. */
const INDEX_RUNS = 3;
/** The acceptance margin: default hit@5 ≥ the best language-aware peer's + 5 points. */
const MARGIN = 0.05;
/** Japanese and Chinese index and query within this factor of English per MB of text. */
const CJK_SPEED_FACTOR = 2;

type Question = JudgedCollection["questions"][number];

interface RankFigures {
  hit1: number;
  hit5: number;
  hit10: number;
  mrr10: number;
  paraphraseHit5: number;
}

interface SystemResult extends RankFigures {
  system: string;
  /** A language-aware peer (the acceptance check compares our default search with the best of them). */
  languageAware: boolean;
  indexMs: number;
  queryP50Ms: number;
  /** Per question id: rank of the first answering page in the top 10, 0 when none. */
  ranks: Record<string, number>;
}

interface LanguageResult {
  code: string;
  mode: LanguageMode;
  /** The collection's `language` in the bot's config, absent with mode none. */
  configLanguage: string | null;
  documents: number;
  /** Questions in the language's file: all, answerable, answerable in words the answering page does not use. */
  questions: { total: number; answerable: number; paraphrase: number };
  /** UTF-8 bytes of the extracted title + text of every page, in MB (10^6 bytes). */
  textMB: number;
  /**
   * Opening the bot with no stored index (median of INDEX_RUNS): every HTML page read, analysed,
   * stored and indexed in memory, as `second-look index` builds it.
   */
  indexMs: number;
  /** The eval's opening of the same bot from its stored (already analysed) index. */
  reopenMs: number;
  systems: SystemResult[];
  weak: {
    falseAlarms: number | null;
    missesCaught: number | null;
    unanswerableFlagged: number | null;
    auc: number | null;
  };
  medianChars: number;
  rescue: {
    misses: number;
    flaggedMisses: number;
    rescued: number;
    charsAddedOnUnanswerableMedian: number | null;
    charsAddedOnUnanswerableP90: number | null;
    /** The signal's final text says "not covered" although the search's top 5 holds an answer. */
    toldNotCoveredAnswerInTop5: number | null;
    toldNotCoveredUnanswerable: number | null;
  };
  /** `second-look eval` (signal) gave the same hit@1/5/10, MRR@10, false alarms, unanswerable flagged, AUC. */
  evalMatches: boolean;
  evalDifferences: string[];
}

const rankIn = (ids: readonly string[], relevant: ReadonlySet<string>) =>
  ids.slice(0, TOP_K).findIndex((id) => relevant.has(id)) + 1;
const inTop = (rank: number, k: number) => rank > 0 && rank <= k;

/** hit@k, MRR@10 over the answerable questions; hit@5 over the paraphrase ones. */
function rankFigures(questions: readonly Question[], ranks: readonly number[]): RankFigures {
  const answerable = ranks.filter((_, i) => questions[i]!.answerable);
  const paraphrase = ranks.filter((_, i) => questions[i]!.answerable && questions[i]!.vocab === "paraphrase");
  const hit = (of: readonly number[], k: number) =>
    of.length ? of.filter((r) => inTop(r, k)).length / of.length : 0;
  return {
    hit1: hit(answerable, 1),
    hit5: hit(answerable, 5),
    hit10: hit(answerable, 10),
    mrr10: answerable.reduce((sum, r) => sum + (r > 0 ? 1 / r : 0), 0) / (answerable.length || 1),
    paraphraseHit5: hit(paraphrase, 5),
  };
}

/** Median ms of one call per question, over TIMED_PASSES passes after an untimed one. */
function queryP50(questions: readonly Question[], search: (text: string) => unknown): number {
  for (const q of questions) search(q.text);
  const times: number[] = [];
  for (let pass = 0; pass < TIMED_PASSES; pass++) {
    for (const q of questions) {
      const started = performance.now();
      search(q.text);
      times.push(performance.now() - started);
    }
  }
  return percentiles(times, [50])[0]!;
}

function systemResult(
  system: string,
  languageAware: boolean,
  c: JudgedCollection,
  rankings: readonly (readonly string[])[],
  timing: { indexMs: number; queryP50Ms: number },
): SystemResult {
  const ranks = c.questions.map((q, i) => rankIn(rankings[i]!, q.relevant));
  return {
    system,
    languageAware,
    ...rankFigures(c.questions, ranks),
    ...timing,
    ranks: Object.fromEntries(
      c.questions.filter((q) => q.answerable).map((q) => [q.id, ranks[c.questions.indexOf(q)]!]),
    ),
  };
}

/** The peers of the data README, on the language's analysis where they are language-aware. */
function peersFor(language: SetLanguage): { peer: Peer; languageAware: boolean }[] {
  const analysis = peerAnalysis(language);
  // The query's words and CJK bigrams, its stopwords dropped, each once.
  const queryWords = (query: string) => [
    ...new Set(bigramTokens(query).filter((w) => isCjkToken(w) || !analysis.stopwords.has(w))),
  ];
  const peers = [
    { peer: new Fts5Peer({ label: "fts5-porter" }), languageAware: false },
    { peer: new MiniSearchPeer({ label: "minisearch-porter" }), languageAware: false },
    {
      peer: new Fts5Peer({
        label: "fts5-unicode61",
        tokenize: "unicode61 remove_diacritics 2",
        // Bigrams written out space-separated: unicode61 indexes each as one token.
        prepareText: (text) => bigramTokens(text).join(" "),
        queryWords,
      }),
      languageAware: true,
    },
    {
      peer: new MiniSearchPeer({
        label: "minisearch-snowball",
        tokenize: bigramTokens,
        processTerm: analysis.term,
      }),
      languageAware: true,
    },
  ];
  if (language.cjk) {
    peers.push({
      peer: new MiniSearchPeer({
        label: "minisearch-segmenter",
        tokenize: analysis.segmenterTokens,
        processTerm: analysis.term,
      }),
      languageAware: true,
    });
  }
  return peers;
}

function ourSystems(engine: KnowledgeEngine, c: JudgedCollection, indexMs: number) {
  const defaultResponses = c.questions.map((q) => engine.searchSync({ query: q.text }));
  const firstPass = c.questions.map((q) => engine.searchSync({ query: q.text, rerank: false }));
  const ids = (rs: typeof defaultResponses) => rs.map((r) => r.results.map((h) => h.id));
  const systems = [
    systemResult("second-look", false, c, ids(defaultResponses), {
      indexMs,
      queryP50Ms: queryP50(c.questions, (query) => engine.searchSync({ query })),
    }),
    systemResult("second-look first pass", false, c, ids(firstPass), {
      indexMs,
      queryP50Ms: queryP50(c.questions, (query) => engine.searchSync({ query, rerank: false })),
    }),
  ];
  // The weak flag by the rule `second-look calibrate` reports it; "misses caught" as the data
  // README counts it: flagged among the answerable questions with no answer in the top 10.
  const ranks = c.questions.map((q, i) => rankIn(ids(defaultResponses)[i]!, q.relevant));
  const outcomes = c.questions.map((q, i) => ({
    bestScore: defaultResponses[i]!.bestScore,
    answerable: q.answerable,
    answered: q.answerable && inTop(ranks[i]!, 5),
  }));
  const flag = weakFlagFigures(outcomes);
  const missed = weakFlagFigures(outcomes.filter((_, i) => c.questions[i]!.answerable && ranks[i] === 0));
  const medianChars = percentiles(
    defaultResponses.map((r) => renderSearchResponse(r, { brief: false }).length),
    [50],
  )[0]!;
  return {
    systems,
    weak: {
      falseAlarms: flag.falseAlarms,
      missesCaught: missed.missesCaught,
      unanswerableFlagged: flag.unanswerableFlagged,
      auc: flag.auc,
    },
    medianChars,
  };
}

function peerSystems(language: SetLanguage, c: JudgedCollection): SystemResult[] {
  return peersFor(language).map(({ peer, languageAware }) => {
    try {
      const started = performance.now();
      peer.build(c.docs);
      const indexMs = performance.now() - started;
      const rankings = c.questions.map((q) => peer.search(q.text, TOP_K));
      const queryP50Ms = queryP50(c.questions, (query) => peer.search(query, TOP_K));
      return systemResult(peer.label, languageAware, c, rankings, { indexMs, queryP50Ms });
    } finally {
      peer.close();
    }
  });
}

/** The README's rescue: a miss (no answer in the top 10) flagged, with an answer in the final text. */
function rescueFigures(s: SettingReport) {
  const misses = s.perQuestion.filter((o) => o.kind === "answerable" && !inTop(o.searchRank, TOP_K));
  return {
    misses: misses.length,
    flaggedMisses: misses.filter((o) => o.flagged).length,
    rescued: misses.filter((o) => o.flagged && o.finalRank > 0).length,
    charsAddedOnUnanswerableMedian: s.charsAddedOnUnanswerable.median,
    charsAddedOnUnanswerableP90: s.charsAddedOnUnanswerable.p90,
    toldNotCoveredAnswerInTop5: s.toldNotCovered.answerInTop5.rate,
    toldNotCoveredUnanswerable: s.toldNotCovered.unanswerable.rate,
  };
}

/** Where the product's eval (signal) disagrees with the bench's own figures for our default search. */
function evalDifferences(s: SettingReport, ours: SystemResult, weak: LanguageResult["weak"]): string[] {
  const pairs: [string, number | null, number | null][] = [
    ["hit@1", s.search.hit1, ours.hit1],
    ["hit@5", s.search.hit5, ours.hit5],
    ["hit@10", s.search.hit10, ours.hit10],
    ["MRR@10", s.search.mrr10, ours.mrr10],
    ["false alarms", s.weak.falseAlarms.rate, weak.falseAlarms],
    ["unanswerable flagged", s.weak.unanswerableFlagged.rate, weak.unanswerableFlagged],
    ["AUC", s.weak.auc, weak.auc],
  ];
  return pairs
    .filter(([, a, b]) => a === null || b === null || Math.abs(a - b) > 1e-3)
    .map(([label, a, b]) => `${label}: eval ${a ?? "–"}, bench ${b === null ? "–" : b.toFixed(4)}`);
}

/** The bot opened with no stored index, INDEX_RUNS times: the median time, and the last engine (kept open). */
async function freshIndex(dir: string) {
  const times: number[] = [];
  for (let run = 1; ; run++) {
    await rm(indexDirectory(dir), { recursive: true, force: true });
    const started = performance.now();
    const opened = await openSetBot(dir);
    times.push(performance.now() - started);
    if (run === INDEX_RUNS) return { opened, indexMs: percentiles(times, [50])[0]! };
    await opened.close();
  }
}

/** The system name of our default search on the pages analysed as English (`language: "en"`). */
const ENGLISH_ONLY = "second-look English analysis";

/**
 * Our default search on the same pages with the collection's `language` set to "en" (English
 * analysis whatever the pages' language): the English-only engine the acceptance check compares with.
 */
async function englishOnlySystem(
  set: MultilingualSet,
  language: SetLanguage,
  judged: Awaited<ReturnType<typeof readJudgedQuestions>>,
): Promise<SystemResult> {
  const dir = await setBotDir(set, language, "en");
  await rm(indexDirectory(dir), { recursive: true, force: true });
  const started = performance.now();
  const opened = await openSetBot(dir);
  const indexMs = performance.now() - started;
  try {
    const c = fromEngine(language.code, opened.engine, judged);
    const rankings = c.questions.map((q) =>
      opened.engine.searchSync({ query: q.text }).results.map((h) => h.id),
    );
    return systemResult(ENGLISH_ONLY, false, c, rankings, {
      indexMs,
      queryP50Ms: queryP50(c.questions, (query) => opened.engine.searchSync({ query })),
    });
  } finally {
    await opened.close();
  }
}

async function measureLanguage(
  set: MultilingualSet,
  language: SetLanguage,
  mode: LanguageMode,
): Promise<LanguageResult> {
  const dir = await setBotDir(set, language, mode);
  const questions = questionsFile(set, language.code);
  const judged = await readJudgedQuestions(questions);
  process.stderr.write(`${set.name} ${language.code}: index ×${INDEX_RUNS}, searches, peers …\n`);
  const { opened, indexMs } = await freshIndex(dir);
  let result: Omit<LanguageResult, "reopenMs" | "rescue" | "evalMatches" | "evalDifferences">;
  try {
    const c = fromEngine(language.code, opened.engine, judged);
    const ours = ourSystems(opened.engine, c, indexMs);
    const textBytes = c.docs.reduce((sum, d) => sum + Buffer.byteLength(`${d.title}\n${d.text}`), 0);
    const config = opened.bot.config.knowledge.collections?.docs as { language?: string } | undefined;
    result = {
      code: language.code,
      mode,
      configLanguage: config?.language ?? null,
      documents: opened.engine.collectionIndex("docs")?.documentCount ?? c.docs.length,
      textMB: textBytes / 1e6,
      indexMs,
      systems: [...ours.systems, ...peerSystems(language, c)],
      questions: {
        total: judged.length,
        answerable: judged.filter((q) => q.kind === "answerable").length,
        paraphrase: judged.filter((q) => q.kind === "answerable" && q.vocab === "paraphrase").length,
      },
      weak: ours.weak,
      medianChars: ours.medianChars,
    };
  } finally {
    await opened.close();
  }
  // The product's eval with the signal grader through the real corrective pass, on the same bot
  // (it opens it as `second-look eval` does, from the index stored above).
  process.stderr.write(`${set.name} ${language.code}: eval (signal) …\n`);
  const report = await evaluateBot(await loadBotFromDir(dir), judged, {
    settings: ["signal"],
    questionsFile: questions,
  });
  const signal = report.settings[0]!;
  const differences = evalDifferences(signal, result.systems[0]!, result.weak);
  if (!set.englishOnlyFile && mode !== "en") {
    process.stderr.write(`${set.name} ${language.code}: English-only engine …\n`);
    result.systems.splice(2, 0, await englishOnlySystem(set, language, judged));
  }
  return {
    ...result,
    reopenMs: report.indexMs,
    rescue: rescueFigures(signal),
    evalMatches: differences.length === 0,
    evalDifferences: differences,
  };
}

// ---- tables

const pct = (x: number | null | undefined) =>
  x === null || x === undefined ? "–" : Math.round(x * 100).toString();
const ms = (x: number) => (x >= 100 ? Math.round(x).toLocaleString("en-US") : x.toFixed(x >= 10 ? 1 : 2));

function systemNames(results: readonly LanguageResult[]): string[] {
  const names: string[] = [];
  for (const r of results) for (const s of r.systems) if (!names.includes(s.system)) names.push(s.system);
  return names;
}

function allSystemsTable(results: readonly LanguageResult[]): string[] {
  const names = systemNames(results);
  return [
    `| language | ${names.join(" | ")} |`,
    `|---|${names.map(() => "---").join("|")}|`,
    ...results.map((r) => {
      const cells = names.map((n) => {
        const s = r.systems.find((x) => x.system === n);
        return s ? `${pct(s.hit1)} / ${pct(s.hit5)} / ${pct(s.hit10)} · ${s.mrr10.toFixed(2)}` : "–";
      });
      return `| ${r.code} | ${cells.join(" | ")} |`;
    }),
  ];
}

function paraphraseTable(results: readonly LanguageResult[]): string[] {
  const names = systemNames(results);
  return [
    `| language | ${names.join(" | ")} |`,
    `|---|${names.map(() => "--:").join("|")}|`,
    ...results.map(
      (r) =>
        `| ${r.code} | ${names.map((n) => pct(r.systems.find((x) => x.system === n)?.paraphraseHit5)).join(" | ")} |`,
    ),
  ];
}

function weakTable(results: readonly LanguageResult[]): string[] {
  return [
    "| language | hit@1 | hit@5 | hit@10 | MRR@10 | hit@5 paraphrase | false alarms | misses caught | unanswerable flagged | AUC | median chars | rescued / misses (flagged) | chars added on unanswerable (median / p90) | told not covered: answer in top 5 / unanswerable | eval = bench |",
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|---|",
    ...results.map((r) => {
      const s = r.systems[0]!;
      const x = r.rescue;
      return `| ${r.code} | ${pct(s.hit1)} | ${pct(s.hit5)} | ${pct(s.hit10)} | ${s.mrr10.toFixed(2)} | ${pct(s.paraphraseHit5)} | ${pct(r.weak.falseAlarms)} | ${pct(r.weak.missesCaught)} | ${pct(r.weak.unanswerableFlagged)} | ${r.weak.auc?.toFixed(2) ?? "–"} | ${r.medianChars.toLocaleString("en-US")} | ${x.rescued} / ${x.misses} (${x.flaggedMisses}) | ${x.charsAddedOnUnanswerableMedian?.toLocaleString("en-US") ?? "–"} / ${x.charsAddedOnUnanswerableP90?.toLocaleString("en-US") ?? "–"} | ${pct(x.toldNotCoveredAnswerInTop5)} / ${pct(x.toldNotCoveredUnanswerable)} | ${r.evalMatches ? "yes" : `no: ${r.evalDifferences.join("; ")}`} |`;
    }),
  ];
}

/**
 * The English-only engine's hit@5 per language: measured in this run (`language: "en"`), else
 * our default search in the set's committed result file of the engine before it knew languages.
 */
function englishOnlyHit5(set: MultilingualSet, results: readonly LanguageResult[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of results) {
    const english = r.systems.find((s) => s.system === ENGLISH_ONLY);
    if (english) out.set(r.code, english.hit5);
  }
  if (out.size || !set.englishOnlyFile || !existsSync(set.englishOnlyFile)) return out;
  const recorded = JSON.parse(readFileSync(set.englishOnlyFile, "utf8")) as {
    figures?: { languages?: LanguageResult[] };
  };
  for (const r of recorded.figures?.languages ?? []) {
    const ours = r.systems.find((s) => s.system === "second-look");
    if (ours) out.set(r.code, ours.hit5);
  }
  return out;
}

function acceptance(set: MultilingualSet, results: readonly LanguageResult[]) {
  const before = englishOnlyHit5(set, results);
  return results.map((r) => {
    const ours = r.systems[0]!.hit5;
    const aware = r.systems.filter((s) => s.languageAware);
    const best = aware.reduce((a, b) => (b.hit5 > a.hit5 ? b : a), aware[0]!);
    const earlier = before.get(r.code);
    return {
      code: r.code,
      hit5: ours,
      bestPeer: best.system,
      bestPeerHit5: best.hit5,
      // Counted in questions, so the shares compare exactly: hit@5 ≥ best + 5 points.
      pass: ours + 1e-9 >= best.hit5 + MARGIN,
      /** The English-only engine's hit@5 (see englishOnlyHit5). */
      beforeHit5: earlier ?? null,
      notBelowBefore: earlier === undefined ? null : ours + 1e-9 >= earlier,
    };
  });
}

function acceptanceTable(rows: ReturnType<typeof acceptance>): string[] {
  return [
    "| language | default hit@5 | best language-aware peer | needed (peer + 5) | check | English-only engine hit@5 | ≥ English-only |",
    "|---|--:|---|--:|---|--:|---|",
    ...rows.map(
      (a) =>
        `| ${a.code} | ${pct(a.hit5)} | ${a.bestPeer} ${pct(a.bestPeerHit5)} | ${pct(a.bestPeerHit5 + MARGIN)} | ${a.pass ? "PASS" : "FAIL"} | ${pct(a.beforeHit5)} | ${a.notBelowBefore === null ? "–" : a.notBelowBefore ? "yes" : "NO"} |`,
    ),
  ];
}

interface SpeedSample {
  code: string;
  textMB: number;
  indexMs: number;
  queryP50Ms: number;
}

/** Per MB of text, and against English's per-MB figures; Japanese and Chinese checked against the 2× goal. */
function speed(set: MultilingualSet, samples: readonly SpeedSample[]) {
  const english = samples.find((r) => r.code === set.languages[0]!.code);
  const perMB = (r: SpeedSample) => ({
    indexMsPerMB: r.indexMs / r.textMB,
    queryP50MsPerMB: r.queryP50Ms / r.textMB,
  });
  const base = english ? perMB(english) : undefined;
  return samples.map((r) => {
    const mine = perMB(r);
    const indexRatio = base ? mine.indexMsPerMB / base.indexMsPerMB : null;
    const queryRatio = base ? mine.queryP50MsPerMB / base.queryP50MsPerMB : null;
    const cjk = set.languages.some((l) => l.code === r.code && l.cjk);
    return {
      ...r,
      ...mine,
      indexRatio,
      queryRatio,
      pass:
        cjk && indexRatio !== null && queryRatio !== null
          ? indexRatio <= CJK_SPEED_FACTOR && queryRatio <= CJK_SPEED_FACTOR
          : null,
    };
  });
}

/**
 * The set's English and its Japanese and Chinese (those of the run) measured in turns, so load
 * from other work falls on all alike: INDEX_RUNS rounds of one fresh index per language, then
 * TIMED_PASSES passes in which they take turns question by question (the same question in each
 * language). Null unless English and Japanese or Chinese ran.
 */
async function speedInTurns(
  set: MultilingualSet,
  languages: readonly SetLanguage[],
  results: readonly LanguageResult[],
  mode: LanguageMode,
): Promise<SpeedSample[] | null> {
  const english = set.languages[0]!.code;
  const chosen = languages.flatMap((language) => {
    const result = results.find((r) => r.code === language.code);
    return result && (language.code === english || language.cjk) ? [{ language, result }] : [];
  });
  if (chosen[0]?.language.code !== english || chosen.length < 2) return null;
  process.stderr.write(`${set.name} speed: ${chosen.map((c) => c.language.code).join(", ")} in turns …\n`);
  const dirs = await Promise.all(chosen.map((c) => setBotDir(set, c.language, mode)));
  const indexTimes: number[][] = chosen.map(() => []);
  for (let round = 0; round < INDEX_RUNS; round++) {
    for (const [i, dir] of dirs.entries()) {
      await rm(indexDirectory(dir), { recursive: true, force: true });
      const started = performance.now();
      const opened = await openSetBot(dir);
      indexTimes[i]!.push(performance.now() - started);
      await opened.close();
    }
  }
  const opened = await Promise.all(dirs.map((dir) => openSetBot(dir)));
  try {
    const texts = await Promise.all(
      chosen.map(async (c) =>
        (await readJudgedQuestions(questionsFile(set, c.language.code))).map((q) => q.text),
      ),
    );
    const count = Math.min(...texts.map((t) => t.length));
    const times: number[][] = chosen.map(() => []);
    for (let pass = 0; pass <= TIMED_PASSES; pass++) {
      for (let q = 0; q < count; q++) {
        for (const [i, o] of opened.entries()) {
          const started = performance.now();
          o.engine.searchSync({ query: texts[i]![q]! });
          // Pass 0 warms up, untimed.
          if (pass > 0) times[i]!.push(performance.now() - started);
        }
      }
    }
    return chosen.map((c, i) => ({
      code: c.language.code,
      textMB: c.result.textMB,
      indexMs: percentiles(indexTimes[i]!, [50])[0]!,
      queryP50Ms: percentiles(times[i]!, [50])[0]!,
    }));
  } finally {
    await Promise.all(opened.map((o) => o.close()));
  }
}

function speedTable(rows: ReturnType<typeof speed>): string[] {
  const ratio = (x: number | null) => (x === null ? "–" : `${x.toFixed(2)}×`);
  return [
    "| language | text MB | index ms | index ms / MB | vs English | query p50 ms | p50 ms / MB | vs English | ja/zh ≤ 2× English |",
    "|---|--:|--:|--:|--:|--:|--:|--:|---|",
    ...rows.map(
      (s) =>
        `| ${s.code} | ${s.textMB.toFixed(2)} | ${ms(s.indexMs)} | ${ms(s.indexMsPerMB)} | ${ratio(s.indexRatio)} | ${ms(s.queryP50Ms)} | ${ms(s.queryP50MsPerMB)} | ${ratio(s.queryRatio)} | ${s.pass === null ? "–" : s.pass ? "PASS" : "FAIL"} |`,
    ),
  ];
}

type Speed = ReturnType<typeof speed>;

function modeSentence(mode: LanguageMode): string {
  if (mode === "none") return "not set (the key omitted)";
  if (mode === "tag") return "the language's BCP-47 tag";
  return `"${mode}"`;
}

function suiteMarkdown(
  set: MultilingualSet,
  mode: LanguageMode,
  results: readonly LanguageResult[],
  checks: ReturnType<typeof acceptance>,
  speeds: { inTurns: Speed | null; ownTurn: Speed },
  skipped: readonly string[],
): string {
  const q = results[0]?.questions ?? { total: 0, answerable: 0, paraphrase: 0 };
  const { inTurns, ownTurn } = speeds;
  return [
    `${set.envPrefix}_LANGUAGE=${mode}: the collection's \`language\` is ${modeSentence(mode)}; ` +
      `this checkout's config ${languageKeySupported() ? "knows" : "does not know"} the key. ` +
      `${results[0]?.documents ?? 0} pages per language, ${q.total} questions (${q.answerable} answerable, ${q.paraphrase} of them paraphrase). ` +
      "second-look: the bot's config opened as `second-look eval` opens it, default search and first pass " +
      "(`rerank: false`)" +
      (results.some((r) => r.systems.some((s) => s.system === ENGLISH_ONLY))
        ? `; ${ENGLISH_ONLY}: the default search on the same pages with \`language: "en"\` (the English-only engine)`
        : "") +
      "; peers index the same extracted title + text (title ×2, OR, top 10).",
    "",
    `#### All systems: hit@1 / hit@5 / hit@10 (%) · MRR@10, ${q.answerable} answerable questions`,
    "",
    ...allSystemsTable(results),
    "",
    `#### hit@5 paraphrase (%), ${q.paraphrase} questions`,
    "",
    ...paraphraseTable(results),
    "",
    "#### second-look default search: weak flag, the text the model reads, the signal grader's rescue",
    "",
    "Weak flag on `bestScore` (false alarms: flagged with an answer in the top 5; misses caught: flagged with none in " +
      "the top 10; AUC of `bestScore` for an answer in the top 5). Median chars: the full-mode text of the search. " +
      "Rescued: misses (no answer in the top 10) flagged by the signal grader whose corrected text names an answering " +
      "page, through the product's eval and corrective pass. Chars added on unanswerable: what the corrective pass " +
      "appends to the text of the unanswerable questions. eval = bench: the product's `eval` gave the same " +
      "hit@1/5/10, MRR@10, false alarms, unanswerable flagged and AUC.",
    "",
    ...weakTable(results),
    "",
    "#### Acceptance: default hit@5 ≥ best language-aware peer + 5 points, never below the English-only engine",
    "",
    set.englishOnlyFile && !results.some((r) => r.systems.some((s) => s.system === ENGLISH_ONLY))
      ? `English-only engine: our default search in the committed ${set.englishOnlyFile.pathname.split("/").pop()} (the engine before it knew languages).`
      : `English-only engine: ${ENGLISH_ONLY} above.`,
    "",
    ...acceptanceTable(checks),
    "",
    "#### Speed per MB of extracted text (UTF-8, 10^6 bytes)",
    "",
    `index ms: opening the bot with no stored index, median of ${INDEX_RUNS} (HTML pages read in the product's parser threads, analysed, stored and indexed in memory, as \`second-look index\` builds it); query p50: the default search, ` +
      `${TIMED_PASSES} timed passes over the ${q.total} questions. Japanese and Chinese should stay within ${CJK_SPEED_FACTOR}× of English.`,
    "",
    ...(inTurns
      ? [
          `${inTurns.map((r) => r.code).join(", ")} in turns (fresh index builds round by round, queries question by question): the goal's check.`,
          "",
          ...speedTable(inTurns),
          "",
          "Every language in its own turn (minutes apart: load from other work on the machine differs between rows):",
          "",
        ]
      : []),
    ...speedTable(ownTurn),
    ...(skipped.length ? ["", `Skipped: ${skipped.join("; ")}.`] : []),
  ].join("\n");
}

/** The suite over the languages <P>_LANGS names (all by default), the collection's `language` as <P>_LANGUAGE says. */
export async function runMultilingual(
  set: MultilingualSet,
): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const mode = languageMode(set);
  const languages = selectLanguages(set);
  const results: LanguageResult[] = [];
  const skipped: string[] = [];
  for (const language of languages) {
    process.stderr.write(`${set.name} ${language.code} (language: ${mode}) …\n`);
    try {
      results.push(await measureLanguage(set, language, mode));
    } catch (error) {
      if (!(error instanceof MissingData)) throw error;
      skipped.push(`${language.code}: ${error.message}`);
    }
  }
  const checks = acceptance(set, results);
  const ownTurn = speed(
    set,
    results.map((r) => ({
      code: r.code,
      textMB: r.textMB,
      indexMs: r.indexMs,
      queryP50Ms: r.systems[0]!.queryP50Ms,
    })),
  );
  const turns = await speedInTurns(set, languages, results, mode);
  const inTurns = turns ? speed(set, turns) : null;
  return {
    title: `${set.name}: ${set.title} in ${results.length} languages, our search beside language-aware peers`,
    figures: {
      mode,
      languageKeySupported: languageKeySupported(),
      languages: results,
      acceptance: checks,
      speed: { inTurns, ownTurn },
      skipped,
    },
    markdown: suiteMarkdown(set, mode, results, checks, { inTurns, ownTurn }, skipped),
  };
}
