// Corrective rescue on the documentation bots, through the shared command: `second-look eval
// <bot> --questions queries.jsonl --compare off,signal,auto,haiku --json` on pydocs and
// nodejs-api (and `off,signal` on lohelp-en), run in-process. The model
// grader (auto, haiku) is the real provider code talking to a loopback Anthropic server that
// replays one strong model's recorded replies (bench/grader-replay.ts): those columns are
// REPLAYED, not a live model's.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SettingReport } from "../src/evaluation/evaluate-bot.js";
import {
  benchDataDir,
  dataDir,
  lohelpEnglishBotDir,
  MissingData,
  nodejsApiBotDir,
  nodejsApiQuestions,
  pydocsBotDir,
} from "./docbots/collections.js";
import { evalInProcess } from "./eval-in-process.js";
import { REPLAY_KEY_VARIABLE, replayCorrectiveRetrieval, startGraderReplay } from "./grader-replay.js";

export const name = "rescue";
export const timeoutMs = 900_000;

/** Every documentation bot's rescue table, each with its figures. */
export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const pydocs = await pydocsRescue();
  const others = [await lohelpRescue(), await nodejsApiRescue()];
  const bots = [pydocs, ...others.filter((b): b is BotRescue => typeof b !== "string")];
  const skipped = others.filter((b): b is string => typeof b === "string");
  const markdown = [
    ...bots.flatMap((b) => [`### ${b.bot}`, "", b.markdown, ""]),
    ...(skipped.length ? [`Skipped: ${skipped.join("; ")}.`] : []),
  ].join("\n");
  return {
    title:
      "Corrective rescue on the documentation bots (eval --compare; model grader replayed on pydocs and nodejs-api)",
    figures: {
      // pydocs' figures where they always were; every bot's under `bots`.
      ...pydocs.figures,
      bots: bots.map((b) => ({ bot: b.bot, ...b.figures })),
      skipped,
    },
    markdown,
  };
}

interface BotRescue {
  bot: string;
  figures: Record<string, unknown> & { rows: ReturnType<typeof row>[] };
  markdown: string;
}

const TABLE_HEAD = [
  "| setting | hit@5 final | rescued / flagged misses | false alarms | told not covered: answer in top 5 / unanswerable | chars added on unanswerable (median / p90) | model calls / 100 searches | p50 / p95 ms |",
  "|---|---|---|---|---|---|---|---|",
];
const tableRow = (r: ReturnType<typeof row>) =>
  `| ${r.setting}${r.replayed ? " (replayed)" : ""} | ${pct(r.finalHit5)} | ${r.rescued} / ${r.flaggedMisses} (${pct(r.rescueRate)}) | ${r.falseAlarms} | ${r.toldNotCovered} | ${r.charsAdded ?? "–"} / ${r.charsAddedP90 ?? "–"} | ${r.modelCallsPer100} | ${r.p50} / ${r.p95} |`;

/**
 * lohelp-en: the lohelp bench's en-us bot (bench/docbots/collections.ts), `off` and `signal`
 * only (no strong model's replies are recorded for its English questions).
 */
async function lohelpRescue(): Promise<BotRescue | string> {
  const questions = join(dataDir, "lohelp", "queries.en-us.jsonl");
  let dir: string;
  try {
    dir = await lohelpEnglishBotDir();
  } catch (error) {
    if (error instanceof MissingData) return `lohelp-en: ${error.message}`;
    throw error;
  }
  const report = await evalInProcess([dir, "--questions", questions, "--compare", "off,signal"]);
  const rows = report.settings.map(row);
  return {
    bot: "lohelp-en",
    figures: { rows, perQuestion: report.settings.map(perQuestion) },
    markdown: [
      `lohelp en-us bot (${report.documents ?? "?"} documents), ${report.settings[0]?.questions ?? 0} judged questions; no model grader replies are recorded for them.`,
      "",
      ...TABLE_HEAD,
      ...rows.map(tableRow),
    ].join("\n"),
  };
}

/** A documentation bot whose questions have recorded grader replies. */
interface ReplayedBot {
  bot: string;
  dir: string;
  questions: string;
  replies: string;
  description: string;
  collections: Record<string, { paths: string[] }>;
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
    const config = {
      description: target.description,
      knowledge: { backend: "embedded", collections: target.collections },
      correctiveRetrieval: replayCorrectiveRetrieval(replay),
    };
    await writeFile(join(target.dir, "config.json"), `${JSON.stringify(config, null, 2)}\n`);
    process.env[REPLAY_KEY_VARIABLE] = "replay";
    const report = await evalInProcess([
      target.dir,
      "--questions",
      target.questions,
      "--compare",
      "off,signal,auto,haiku",
    ]);
    const rows = report.settings.map(row);
    // The misses haiku's replayed grades rescue, and how many of them auto rescues too.
    const rescuedBy = (setting: string) =>
      new Set(
        report.settings
          .find((s) => s.setting === setting)
          ?.perQuestion.filter((o) => o.kind === "answerable" && o.searchRank === 0 && o.finalRank > 0)
          .map((o) => o.id) ?? [],
      );
    const haikuRescued = rescuedBy("haiku");
    const autoRescued = rescuedBy("auto");
    const autoOfHaiku = [...haikuRescued].filter((id) => autoRescued.has(id)).length;
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
    };
  } finally {
    delete process.env[REPLAY_KEY_VARIABLE];
    await replay.server.close();
  }
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
