// Corrective rescue on the documentation bots, through the shared command: `second-look eval
// <bot> --questions queries.jsonl --compare off,signal,auto,haiku --json` on every bot whose
// questions have recorded grader replies — pydocs, nodejs-api and the Debian handbook in
// English — and on lohelp-en (`off,signal,auto` on its English questions, which have no replies:
// auto runs there only to count its model calls; `auto,haiku` on the lohelp questions in five
// other languages over the same English help, whose replies are recorded), run in-process. The
// model grader (auto, haiku) is the real provider code talking to a loopback Anthropic server
// that replays one strong model's recorded replies (bench/grader-replay.ts): those columns are
// REPLAYED, not a live model's. The closing table is auto's economy per bot (model calls per 100
// searches, haiku's rescues it keeps), and the rescues it leaves are listed with what its ask
// rule read of them (corrective/auto-ask-rule.ts).
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadBotFromDir } from "../src/bots/discovery.js";
import { openBotBackend } from "../src/connectors/open-bot-backend.js";
import type { BotEvalReport, SettingReport } from "../src/evaluation/evaluate-bot.js";
import { readJudgedQuestions } from "../src/evaluation/judged-questions.js";
import type { SearchResponse } from "../src/types.js";
import { isWeak } from "../src/weakness.js";
import { HANDBOOK } from "./debian-handbook/set.js";
import {
  benchDataDir,
  dataDir,
  MissingData,
  nodejsApiBotDir,
  nodejsApiQuestions,
  pydocsBotDir,
} from "./docbots/collections.js";
import { evalInProcess } from "./eval-in-process.js";
import {
  type GraderReplay,
  REPLAY_KEY_VARIABLE,
  replayCorrectiveRetrieval,
  startGraderReplay,
  startGraderReplays,
} from "./grader-replay.js";
import { LOHELP, LOHELP_LANGUAGES } from "./lohelp/languages.js";
import { setBotDir } from "./multilingual/set.js";

export const name = "rescue";
export const timeoutMs = 900_000;

/** Every documentation bot's rescue table, each with its figures. */
export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const pydocs = await pydocsRescue();
  const others = [await lohelpRescue(), await nodejsApiRescue(), await handbookRescue()];
  const bots = [pydocs, ...others.filter((b): b is BotRescue => typeof b !== "string")];
  const skipped = others.filter((b): b is string => typeof b === "string");
  const economy = bots.flatMap((b) => b.economy);
  const left = bots.flatMap((b) => b.leftToSignal);
  const markdown = [
    ...bots.flatMap((b) => [`### ${b.bot}`, "", b.markdown, ""]),
    "### auto's model calls and haiku's rescues it keeps, per bot (replayed)",
    "",
    "| bot | questions | searches | auto: model calls / 100 searches | misses haiku rescues | auto keeps |",
    "|---|---|---|---|---|---|",
    ...economy.map(
      (e) =>
        `| ${e.bot} | ${e.questions} | ${e.searches} | ${e.autoCallsPer100} | ${e.haikuRescued ?? "–"} | ${e.autoKept ?? "–"} |`,
    ),
    "",
    "Haiku's rescues auto leaves to the signal, with what auto's ask rule reads of the first search " +
      "(corrective/auto-ask-rule.ts; – where the response does not report it):",
    "",
    "| bot | question | weak | best | lead over 2nd | best − 5th | key terms in top hit | unmatched share |",
    "|---|---|---|---|---|---|---|---|",
    ...left.map(
      (l) =>
        `| ${l.bot} | ${l.id} | ${l.weak ? "yes" : "no"} | ${fixed(l.best)} | ${fixed(l.lead)} | ${fixed(l.spread)} | ${fixed(l.keyTermsInTopHit)} | ${fixed(l.unmatchedShare)} |`,
    ),
    "",
    ...(skipped.length ? [`Skipped: ${skipped.join("; ")}.`] : []),
  ].join("\n");
  return {
    title:
      "Corrective rescue on the documentation bots (eval --compare; model grader replayed where replies are recorded)",
    figures: {
      // pydocs' figures where they always were; every bot's under `bots`.
      ...pydocs.figures,
      bots: bots.map((b) => ({ bot: b.bot, ...b.figures })),
      autoEconomy: economy,
      leftToSignal: left,
      skipped,
    },
    markdown,
  };
}

interface BotRescue {
  bot: string;
  figures: Record<string, unknown> & { rows: ReturnType<typeof row>[] };
  markdown: string;
  economy: Economy[];
  leftToSignal: LeftToSignal[];
}

/** auto's cost and what it keeps of haiku's rescues on one set of questions. */
interface Economy {
  bot: string;
  questions: string;
  searches: number;
  autoCallsPer100: number;
  /** null where no grader replies are recorded (auto runs only to count its calls). */
  haikuRescued: number | null;
  autoKept: number | null;
}

/** A miss haiku rescues and auto does not, with what auto's rule reads of its first search. */
interface LeftToSignal {
  bot: string;
  id: string;
  weak: boolean;
  best: number;
  lead: number;
  spread: number;
  keyTermsInTopHit: number | null;
  unmatchedShare: number | null;
}

const TABLE_HEAD = [
  "| setting | hit@5 final | rescued / flagged misses | false alarms | told not covered: answer in top 5 / unanswerable | chars added on unanswerable (median / p90) | model calls / 100 searches | p50 / p95 ms |",
  "|---|---|---|---|---|---|---|---|",
];
const tableRow = (r: ReturnType<typeof row>) =>
  `| ${r.setting}${r.replayed ? " (replayed)" : ""} | ${pct(r.finalHit5)} | ${r.rescued} / ${r.flaggedMisses} (${pct(r.rescueRate)}) | ${r.falseAlarms} | ${r.toldNotCovered} | ${r.charsAdded ?? "–"} / ${r.charsAddedP90 ?? "–"} | ${r.modelCallsPer100} | ${r.p50} / ${r.p95} |`;

/** The lohelp question languages whose replies over the English help are recorded. */
const LOHELP_FOREIGN = ["de", "da", "fr", "fi", "ja"] as const;

/**
 * lohelp-en: the lohelp bench's en-us bot (its pages and config, bench/multilingual/set.ts) in a
 * folder of its own. Its English questions have no recorded grader replies: `off` and `signal`,
 * and `auto` only to count how often it would ask the model (the replay answers with an unusable
 * reply, graded `correct`, so its model-graded figures are not read). The lohelp questions in
 * five other languages over the same English help have recorded replies: `auto` and `haiku`.
 */
async function lohelpRescue(): Promise<BotRescue | string> {
  const questionsOf = (code: string) => join(dataDir, "lohelp", `queries.${code}.jsonl`);
  const english = LOHELP_LANGUAGES.find((l) => l.code === "en-us")!;
  let dir: string;
  try {
    dir = await setBotDir(LOHELP, english, "tag", join(tmpdir(), "second-look-bench-rescue-lohelp-en"));
  } catch (error) {
    if (error instanceof MissingData) return `lohelp-en: ${error.message}`;
    throw error;
  }
  const replay = await startGraderReplays(
    LOHELP_FOREIGN.map((code) => ({
      repliesFile: join(dataDir, "lohelp", `grader-replies.${code}-over-en.jsonl`),
      questionsFile: questionsOf(code),
    })),
  );
  try {
    await writeReplayConfig(dir, replay, "LibreOffice help, English (benchmark; grader replies replayed)", {
      docs: { paths: ["docs/**/*.html"], language: english.tag },
    });
    const report = await evalInProcess(
      [dir, "--questions", questionsOf("en-us"), "--compare", "off,signal,auto"],
      { unreliableSettings: ["auto"] },
    );
    // auto's model-graded figures are not the model's here: only its call count is read.
    const rows = report.settings.filter((s) => s.setting !== "auto").map(row);
    const englishAuto = report.settings.find((s) => s.setting === "auto")!;
    const economy: Economy[] = [
      {
        bot: "lohelp-en",
        questions: "English (no replies recorded)",
        searches: englishAuto.questions,
        autoCallsPer100: englishAuto.modelCallsPer100,
        haikuRescued: null,
        autoKept: null,
      },
    ];
    const leftToSignal: LeftToSignal[] = [];
    const foreign = { searches: 0, calls: 0, haiku: 0, kept: 0 };
    for (const code of LOHELP_FOREIGN) {
      process.stderr.write(`rescue: lohelp ${code} over the English help …\n`);
      const other = await evalInProcess([dir, "--questions", questionsOf(code), "--compare", "auto,haiku"]);
      const kept = keptOfHaiku(other);
      foreign.searches += kept.searches;
      foreign.calls += kept.calls;
      foreign.haiku += kept.haiku.size;
      foreign.kept += kept.kept;
      leftToSignal.push(...(await leftBySignal("lohelp-en", dir, questionsOf(code), kept.left)));
    }
    economy.push({
      bot: "lohelp-en",
      questions: `${LOHELP_FOREIGN.join(", ")} over the English help`,
      searches: foreign.searches,
      autoCallsPer100: foreign.searches ? round1((100 * foreign.calls) / foreign.searches) : 0,
      haikuRescued: foreign.haiku,
      autoKept: foreign.kept,
    });
    return {
      bot: "lohelp-en",
      figures: { rows, perQuestion: report.settings.map(perQuestion), economy },
      markdown: [
        `lohelp en-us bot (${report.documents ?? "?"} documents), ${report.settings[0]?.questions ?? 0} judged questions; ` +
          "no model grader replies are recorded for them (auto runs only to count its model calls, in the economy table below).",
        "",
        ...TABLE_HEAD,
        ...rows.map(tableRow),
      ].join("\n"),
      economy,
      leftToSignal,
    };
  } finally {
    delete process.env[REPLAY_KEY_VARIABLE];
    await replay.server.close();
  }
}

/** The handbook in English (bench/data/handbook): its pages as the debian-handbook bench builds them. */
async function handbookRescue(): Promise<BotRescue | string> {
  const english = HANDBOOK.languages.find((l) => l.code === "en-us")!;
  let dir: string;
  try {
    dir = await setBotDir(HANDBOOK, english, "tag", join(tmpdir(), "second-look-bench-rescue-handbook-en"));
  } catch (error) {
    if (error instanceof MissingData) return `handbook-en: ${error.message}`;
    throw error;
  }
  return replayedRescue({
    bot: "handbook-en",
    dir,
    questions: join(benchDataDir, "handbook", "queries.en-us.jsonl"),
    replies: join(benchDataDir, "handbook", "grader-replies.en-us.jsonl"),
    description: "The Debian Administrator's Handbook, English (benchmark; grader replies replayed)",
    collections: { docs: { paths: ["docs/**/*.html"], language: english.tag } },
  });
}

/** A documentation bot whose questions have recorded grader replies. */
interface ReplayedBot {
  bot: string;
  dir: string;
  questions: string;
  replies: string;
  description: string;
  collections: Record<string, { paths: string[]; language?: string }>;
}

/**
 * nodejs-api: Node.js 18's API reference (bench/data/nodejs-api), every setting; its grader
 * replies were recorded from the product's own grader prompts (bench/data/nodejs-api/README.md).
 */
async function nodejsApiRescue(): Promise<BotRescue | string> {
  let dir: string;
  try {
    dir = await nodejsApiBotDir();
  } catch (error) {
    if (error instanceof MissingData) return `nodejs-api: ${error.message}`;
    throw error;
  }
  return replayedRescue({
    bot: "nodejs-api",
    dir,
    questions: nodejsApiQuestions,
    replies: join(benchDataDir, "nodejs-api", "grader-replies.jsonl"),
    description: "Node.js 18 API reference (benchmark; grader replies replayed)",
    collections: { "nodejs-api": { paths: ["docs/**/*.md"] } },
  });
}

async function pydocsRescue(): Promise<BotRescue> {
  return replayedRescue({
    bot: "pydocs",
    dir: await pydocsBotDir(),
    questions: join(dataDir, "pydocs", "queries.jsonl"),
    replies: join(dataDir, "pydocs", "grader-replies.jsonl"),
    description: "Python 3.11 documentation (benchmark; grader replies replayed)",
    collections: { pydocs: { paths: ["docs/**/*.html"] } },
  });
}

/** off, signal, auto and haiku on one bot, the model grader replaying the bot's recorded replies. */
async function replayedRescue(target: ReplayedBot): Promise<BotRescue> {
  const replay = await startGraderReplay(target.replies, target.questions);
  try {
    await writeReplayConfig(target.dir, replay, target.description, target.collections);
    const report = await evalInProcess([
      target.dir,
      "--questions",
      target.questions,
      "--compare",
      "off,signal,auto,haiku",
    ]);
    const rows = report.settings.map(row);
    // The misses haiku's replayed grades rescue, and how many of them auto rescues too.
    const kept = keptOfHaiku(report);
    const haikuRescued = kept.haiku;
    const autoOfHaiku = kept.kept;
    const markdown = [
      `${target.bot} bot (${report.documents ?? "?"} documents), ${report.settings[0]?.questions ?? 0} judged questions; ` +
        "auto and haiku grade with one strong model's recorded replies, **replayed** through the Anthropic " +
        "provider code over a loopback server (not a live model).",
      "",
      ...TABLE_HEAD,
      ...rows.map(tableRow),
      "",
      `Misses (answer in none of the shown hits) that haiku rescues: ${haikuRescued.size}; auto rescues ${autoOfHaiku} of them.`,
      `Replay requests without a recorded reply: ${replay.unmatched()}.`,
    ].join("\n");
    return {
      bot: target.bot,
      figures: {
        rows,
        haikuRescued: haikuRescued.size,
        autoOfHaikuRescued: autoOfHaiku,
        unmatchedReplays: replay.unmatched(),
        perQuestion: report.settings.map(perQuestion),
      },
      markdown,
      economy: [
        {
          bot: target.bot,
          questions: "its own (replies recorded)",
          searches: kept.searches,
          autoCallsPer100: report.settings.find((s) => s.setting === "auto")?.modelCallsPer100 ?? 0,
          haikuRescued: haikuRescued.size,
          autoKept: autoOfHaiku,
        },
      ],
      leftToSignal: await leftBySignal(target.bot, target.dir, target.questions, kept.left),
    };
  } finally {
    delete process.env[REPLAY_KEY_VARIABLE];
    await replay.server.close();
  }
}

/** The bot's config.json: its collections, the corrective pass grading through the replay. */
async function writeReplayConfig(
  dir: string,
  replay: GraderReplay,
  description: string,
  collections: Record<string, unknown>,
): Promise<void> {
  const config = {
    description,
    knowledge: { backend: "embedded", collections },
    correctiveRetrieval: replayCorrectiveRetrieval(replay),
  };
  await writeFile(join(dir, "config.json"), `${JSON.stringify(config, null, 2)}\n`);
  process.env[REPLAY_KEY_VARIABLE] = "replay";
}

/** The misses haiku rescues (no answer among the search's hits, one in the final text), and which auto rescues too. */
function keptOfHaiku(report: BotEvalReport) {
  const rescuedBy = (setting: string) =>
    new Set(
      report.settings
        .find((s) => s.setting === setting)
        ?.perQuestion.filter((o) => o.kind === "answerable" && o.searchRank === 0 && o.finalRank > 0)
        .map((o) => o.id) ?? [],
    );
  const haiku = rescuedBy("haiku");
  const auto = rescuedBy("auto");
  const autoSetting = report.settings.find((s) => s.setting === "auto");
  return {
    haiku,
    kept: [...haiku].filter((id) => auto.has(id)).length,
    left: [...haiku].filter((id) => !auto.has(id)),
    searches: autoSetting?.questions ?? 0,
    calls: autoSetting?.perQuestion.reduce((n, o) => n + o.modelCalls, 0) ?? 0,
  };
}

/**
 * What auto's ask rule reads of the first search of each question `ids` names: the bot's backend
 * opened as eval opens it, each question searched again (the ranking is deterministic).
 */
async function leftBySignal(
  bot: string,
  dir: string,
  questionsFile: string,
  ids: readonly string[],
): Promise<LeftToSignal[]> {
  if (ids.length === 0) return [];
  const questions = (await readJudgedQuestions(questionsFile)).filter((q) => ids.includes(q.id));
  const opened = await openBotBackend(await loadBotFromDir(dir));
  try {
    const out: LeftToSignal[] = [];
    for (const q of questions) {
      const response: SearchResponse = await opened.backend.search({ query: q.text });
      const relevance = response.results.map((h) => h.relevance).sort((a, b) => b - a);
      const coverage = (response as { queryCoverage?: { keyTermsInTopHit: number; unmatchedShare: number } })
        .queryCoverage;
      out.push({
        bot,
        id: q.id,
        weak: isWeak(response),
        best: response.bestScore,
        lead: response.bestScore - (relevance[1] ?? 0),
        spread: response.bestScore - (relevance[4] ?? 0),
        keyTermsInTopHit: coverage?.keyTermsInTopHit ?? null,
        unmatchedShare: coverage?.unmatchedShare ?? null,
      });
    }
    return out;
  } finally {
    await opened.close();
  }
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

function fixed(x: number | null): string {
  return x === null ? "–" : x.toFixed(2);
}

function row(s: SettingReport) {
  const rescuedFlagged = s.perQuestion.filter(
    (o) => o.kind === "answerable" && o.searchRank === 0 && o.flagged && o.finalRank > 0,
  ).length;
  return {
    setting: s.setting,
    replayed: s.setting === "auto" || s.setting === "haiku",
    finalHit5: s.final.hit5,
    rescued: rescuedFlagged,
    flaggedMisses: s.rescue.flagged,
    rescueRate: s.rescue.flagged ? rescuedFlagged / s.rescue.flagged : null,
    falseAlarms: `${s.weak.falseAlarms.count}/${s.weak.falseAlarms.of}`,
    toldNotCovered: `${s.toldNotCovered.answerInTop5.count}/${s.toldNotCovered.answerInTop5.of} / ${s.toldNotCovered.unanswerable.count}/${s.toldNotCovered.unanswerable.of}`,
    charsAdded: s.charsAddedOnUnanswerable.median,
    charsAddedP90: s.charsAddedOnUnanswerable.p90,
    modelCallsPer100: s.modelCallsPer100,
    p50: s.latencyMs.p50,
    p95: s.latencyMs.p95,
  };
}

function perQuestion(s: SettingReport) {
  return {
    setting: s.setting,
    questions: s.perQuestion.map((o) => ({
      id: o.id,
      searchRank: o.searchRank,
      bestScore: o.bestScore,
      finalRank: o.finalRank,
      flagged: o.flagged,
      toldNotCovered: o.toldNotCovered,
      added: o.finalChars - o.originalChars,
      modelCalls: o.modelCalls,
    })),
  };
}

function pct(x: number | null): string {
  return x === null ? "–" : `${(x * 100).toFixed(1)}%`;
}
