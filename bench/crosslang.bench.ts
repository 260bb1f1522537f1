// Questions in another language than the documents: the lohelp questions in German, Danish,
// French, Finnish and Japanese over LibreOffice's ENGLISH help (collection language "en"),
// through the shared command (`second-look eval <bot> --questions queries.<lang>.jsonl
// --compare signal,auto,haiku --json`, in-process), and the English questions over the same
// pages for the reference hit@5 and auto's cost where nothing is foreign. The model grader
// (auto, haiku) is the real Anthropic provider code talking to a loopback server that replays
// one strong model's recorded replies (bench/grader-replay.ts,
// ../shared/data/lohelp/grader-replies.<lang>-over-en.jsonl): those figures are REPLAYED. The
// English questions have no recorded replies: the replay answers them with an unusable reply
// (graded `correct`), which leaves auto's count of model calls — decided before the reply —
// exactly what a live model would cost.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { BotEvalReport, SettingReport } from "../src/evaluation/evaluate-bot.js";
import { languageDetector } from "../src/knowledge/analysis/detect.js";
import { languageOf } from "../src/knowledge/analysis/registry.js";
import { isLanguageMismatch, LANGUAGE_MISMATCH_MARGIN } from "../src/weakness.js";
import { dataDir, MissingData } from "./docbots/collections.js";
import { evalInProcess } from "./eval-in-process.js";
import { REPLAY_KEY_VARIABLE, replayCorrectiveRetrieval, startGraderReplays } from "./grader-replay.js";

export const name = "crosslang";
export const timeoutMs = 2_400_000;

const FOREIGN = ["de", "da", "fr", "fi", "ja"] as const;
const ENGLISH = "en-us";
/** Every lohelp question language: the mismatch rule is judged on all of them, in and across languages. */
const ALL_LANGUAGES = ["en-us", "de", "da", "fr", "fi", "ja", "sv", "nl", "es", "ru", "zh-cn"] as const;
const MARGINS = [0.1, LANGUAGE_MISMATCH_MARGIN, 0.2];
const REPLAY_LABEL = "replayed (recorded grader replies, 2026-11-24)";
/** The acceptance: in auto mode, the foreign questions reach this share of English hit@5 … */
const TARGET_SHARE_OF_ENGLISH = 0.8;
/** … while auto asks the model on at most this share of the English questions' searches. */
const TARGET_ENGLISH_CALLS_PER_100 = 40;

const exec = promisify(execFile);

/** The English help as a bot folder, built once by the data's own script (BENCH_LOHELP_EN_BOT reuses one). */
async function lohelpEnglishBotDir(): Promise<string> {
  const script = join(dataDir, "lohelp", "build-bot.sh");
  if (!existsSync(script)) throw new MissingData(`${script} not found (../shared/data absent)`);
  const dir = process.env.BENCH_LOHELP_EN_BOT ?? join(tmpdir(), "second-look-bench-lohelp-en-us");
  if (!existsSync(join(dir, "docs", "text", "shared", "guide", "redaction.html"))) {
    process.stderr.write(`building the English LibreOffice help bot in ${dir} with ${script} …\n`);
    await exec("bash", [script, ENGLISH, dir], { maxBuffer: 16 * 1024 * 1024 });
  }
  return dir;
}

interface Row {
  language: string;
  setting: string;
  replayed: boolean;
  answerable: number;
  searchHit5: number | null;
  /** An answering page anywhere in the text the model reads after the corrective pass. */
  answeringInText: number | null;
  modelCallsPer100: number;
  flagged: number;
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const questionsOf = (lang: string) => join(dataDir, "lohelp", `queries.${lang}.jsonl`);
  const replay = await startGraderReplays(
    FOREIGN.map((lang) => ({
      repliesFile: join(dataDir, "lohelp", `grader-replies.${lang}-over-en.jsonl`),
      questionsFile: questionsOf(lang),
    })),
  );
  try {
    const dir = await lohelpEnglishBotDir();
    const config = {
      description: "LibreOffice help, English (benchmark; grader replies replayed)",
      knowledge: {
        backend: "embedded",
        collections: { help: { paths: ["docs/**/*.html"], language: "en" } },
      },
      correctiveRetrieval: replayCorrectiveRetrieval(replay),
    };
    await writeFile(join(dir, "config.json"), `${JSON.stringify(config, null, 2)}\n`);
    process.env[REPLAY_KEY_VARIABLE] = "replay";

    const rows: Row[] = [];
    let documents: BotEvalReport["documents"] = null;
    const mismatch = await mismatchFigures(questionsOf);
    for (const lang of [ENGLISH, ...FOREIGN]) {
      const file = questionsOf(lang);
      const compare = lang === ENGLISH ? "signal,auto" : "signal,auto,haiku";
      process.stderr.write(`crosslang: ${lang} (${compare}) …\n`);
      // No recorded replies exist for the English questions: auto runs there only to count how
      // often it would ask the model; its model-graded figures are not read (shown as "–").
      const report = await evalInProcess([dir, "--questions", file, "--compare", compare], {
        unreliableSettings: lang === ENGLISH ? ["auto"] : [],
      });
      rows.push(...report.settings.map((s) => row(lang, s)));
      if (lang === ENGLISH) documents = report.documents;
    }

    const english = rows.find((r) => r.language === ENGLISH && r.setting === "auto")!;
    const englishHit5 = rows.find((r) => r.language === ENGLISH && r.setting === "signal")!.searchHit5;
    const target = englishHit5 === null ? null : englishHit5 * TARGET_SHARE_OF_ENGLISH;
    const autoRows = rows.filter((r) => r.language !== ENGLISH && r.setting === "auto");
    const met =
      target !== null &&
      autoRows.every((r) => r.answeringInText !== null && r.answeringInText >= target) &&
      english.modelCallsPer100 <= TARGET_ENGLISH_CALLS_PER_100;

    const markdown = [
      `LibreOffice help in English (${documents ?? "?"} pages, collection language "en"); the same 80 questions ` +
        `in each language (answerable: ${rows[0]?.answerable ?? "?"}). auto and haiku grade with one strong model's ` +
        `recorded replies — **${REPLAY_LABEL}** — through the Anthropic provider code over a loopback server (not a live model).`,
      "",
      "| questions | setting | hit@5 first search | answering page in the text the model reads | model calls / 100 searches | searches flagged weak |",
      "|---|---|---|---|---|---|",
      ...rows.map(
        (r) =>
          `| ${r.language} | ${r.setting}${r.replayed ? " (replayed)" : ""} | ${pct(r.searchHit5)} | ${pct(r.answeringInText)} | ${r.modelCallsPer100} | ${r.flagged} |`,
      ),
      "",
      "Questions flagged as written in another language than the documents (src/weakness.ts " +
        "isLanguageMismatch: detected reliably, ≥ 12 letters, none of the documents' script, ahead of their " +
        "language by the margin), each language's questions against their own language and against English:",
      "",
      `| margin | ${ALL_LANGUAGES.join(" | ")} | in-language, all |`,
      `|---|${ALL_LANGUAGES.map(() => "---|").join("")}---|`,
      ...mismatch.map(
        (m) =>
          `| ${m.margin.toFixed(2)}${m.margin === LANGUAGE_MISMATCH_MARGIN ? " (default)" : ""} | ${ALL_LANGUAGES.map(
            (lang) => `${m.own[lang]} / ${m.overEnglish[lang]}`,
          ).join(" | ")} | ${m.inLanguage} of ${m.questions} |`,
      ),
      "",
      "(each cell: flagged against its own language / against English, of 80)",
      "",
      `Acceptance (auto): answering page in the text for ≥ ${TARGET_SHARE_OF_ENGLISH * 100} % of the English questions' ` +
        `hit@5 (${pct(englishHit5)} → target ${pct(target)}): ${autoRows
          .map((r) => `${r.language} ${pct(r.answeringInText)}`)
          .join(", ")}; auto asks the model on ${english.modelCallsPer100} of 100 English searches ` +
        `(target ≤ ${TARGET_ENGLISH_CALLS_PER_100}). ${met ? "Met." : "Not met."}`,
      `Replay requests without a recorded reply (the English questions under auto, and any foreign one not matched): ${replay.unmatched()}.`,
    ].join("\n");
    return {
      title:
        "Questions in another language than the documents (lohelp over the English help; model grader replayed)",
      figures: {
        label: REPLAY_LABEL,
        documents,
        rows,
        mismatch,
        englishHit5,
        target,
        englishAutoCallsPer100: english.modelCallsPer100,
        met,
        unmatchedReplays: replay.unmatched(),
      },
      markdown,
    };
  } finally {
    delete process.env[REPLAY_KEY_VARIABLE];
    await replay.server.close();
  }
}

interface MismatchFigures {
  margin: number;
  own: Record<string, number>;
  overEnglish: Record<string, number>;
  inLanguage: number;
  questions: number;
}

/** The mismatch rule on every language's questions, at the default margin and its neighbours. */
async function mismatchFigures(questionsOf: (lang: string) => string): Promise<MismatchFigures[]> {
  const guess = await languageDetector();
  const texts = new Map<string, string[]>();
  for (const lang of ALL_LANGUAGES) {
    texts.set(
      lang,
      (await readFile(questionsOf(lang), "utf8"))
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => (JSON.parse(l) as { text: string }).text),
    );
  }
  return MARGINS.map((margin) => {
    const figures: MismatchFigures = { margin, own: {}, overEnglish: {}, inLanguage: 0, questions: 0 };
    for (const lang of ALL_LANGUAGES) {
      const own = languageOf(lang)!.tag;
      const questions = texts.get(lang)!;
      figures.own[lang] = questions.filter((t) => isLanguageMismatch(t, guess(t), [own], { margin })).length;
      figures.overEnglish[lang] = questions.filter((t) =>
        isLanguageMismatch(t, guess(t), ["en"], { margin }),
      ).length;
      figures.inLanguage += figures.own[lang];
      figures.questions += questions.length;
    }
    return figures;
  });
}

function row(language: string, s: SettingReport): Row {
  const answerable = s.perQuestion.filter((o) => o.kind === "answerable");
  const rate = (n: number) => (answerable.length === 0 ? null : n / answerable.length);
  return {
    language,
    setting: s.setting,
    replayed: s.setting === "auto" || s.setting === "haiku",
    answerable: answerable.length,
    searchHit5: rate(answerable.filter((o) => o.searchRank > 0 && o.searchRank <= 5).length),
    answeringInText: s.reliable ? rate(answerable.filter((o) => o.finalRank > 0).length) : null,
    modelCallsPer100: s.modelCallsPer100,
    flagged: s.perQuestion.filter((o) => o.flagged).length,
  };
}

function pct(x: number | null): string {
  return x === null ? "–" : `${(x * 100).toFixed(1)} %`;
}
