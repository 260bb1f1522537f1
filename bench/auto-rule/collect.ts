// Writes the feature tables auto's ask rule is fitted on, one JSON line per question, into a
// folder: `node --import tsx bench/auto-rule/collect.ts <folder> [pydocs|nodejs-api|handbook-en|lohelp-en …]`.
// Every documentation bot with recorded grader replies, replayed (bench/grader-replay.ts):
// pydocs, nodejs-api, the handbook in English, and lohelp-en — its English questions (no replies:
// auto runs only to count its calls) and the lohelp questions in five other languages over the
// same English help. Then `bench/auto-rule/fit.ts <folder>` fits the rule.
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HANDBOOK } from "../debian-handbook/set.js";
import {
  benchDataDir,
  dataDir,
  nodejsApiBotDir,
  nodejsApiQuestions,
  pydocsBotDir,
} from "../docbots/collections.js";
import { REPLAY_KEY_VARIABLE, replayCorrectiveRetrieval, startGraderReplays } from "../grader-replay.js";
import { LOHELP } from "../lohelp/languages.js";
import { setBotDir } from "../multilingual/set.js";
import { featureTable, saveTable } from "./features.js";

const [out, ...wanted] = process.argv.slice(2);
if (!out) throw new Error("usage: collect.ts <folder> [bot …]");

const REPLAYED = "signal,haiku,auto";
const FOREIGN = ["de", "da", "fr", "fi", "ja"];
const lohelpQuestions = (code: string) => join(dataDir, "lohelp", `queries.${code}.jsonl`);

interface Target {
  bot: string;
  dir: () => Promise<string>;
  collections: Record<string, unknown>;
  runs: { name: string; questions: string; replies?: string; compare: string }[];
}

const targets: Target[] = [
  {
    bot: "pydocs",
    dir: pydocsBotDir,
    collections: { pydocs: { paths: ["docs/**/*.html"] } },
    runs: [
      {
        name: "pydocs",
        questions: join(dataDir, "pydocs", "queries.jsonl"),
        replies: join(dataDir, "pydocs", "grader-replies.jsonl"),
        compare: REPLAYED,
      },
    ],
  },
  {
    bot: "nodejs-api",
    dir: nodejsApiBotDir,
    collections: { "nodejs-api": { paths: ["docs/**/*.md"] } },
    runs: [
      {
        name: "nodejs-api",
        questions: nodejsApiQuestions,
        replies: join(benchDataDir, "nodejs-api", "grader-replies.jsonl"),
        compare: REPLAYED,
      },
    ],
  },
  {
    bot: "handbook-en",
    dir: () =>
      setBotDir(
        HANDBOOK,
        HANDBOOK.languages[0]!,
        "tag",
        join(tmpdir(), "second-look-bench-rescue-handbook-en"),
      ),
    collections: { docs: { paths: ["docs/**/*.html"], language: "en-US" } },
    runs: [
      {
        name: "handbook-en",
        questions: join(benchDataDir, "handbook", "queries.en-us.jsonl"),
        replies: join(benchDataDir, "handbook", "grader-replies.en-us.jsonl"),
        compare: REPLAYED,
      },
    ],
  },
  {
    bot: "lohelp-en",
    dir: () =>
      setBotDir(LOHELP, LOHELP.languages[0]!, "tag", join(tmpdir(), "second-look-bench-rescue-lohelp-en")),
    collections: { docs: { paths: ["docs/**/*.html"], language: "en-US" } },
    runs: [
      { name: "lohelp-en", questions: lohelpQuestions("en-us"), compare: "signal,auto" },
      ...FOREIGN.map((code) => ({
        name: `lohelp-${code}-over-en`,
        questions: lohelpQuestions(code),
        replies: join(dataDir, "lohelp", `grader-replies.${code}-over-en.jsonl`),
        compare: REPLAYED,
      })),
    ],
  },
];

for (const target of targets) {
  if (wanted.length && !wanted.includes(target.bot)) continue;
  const dir = await target.dir();
  const replay = await startGraderReplays(
    target.runs.flatMap((r) => (r.replies ? [{ repliesFile: r.replies, questionsFile: r.questions }] : [])),
  );
  try {
    const config = {
      description: `${target.bot} (auto's ask rule: feature table)`,
      knowledge: { backend: "embedded", collections: target.collections },
      correctiveRetrieval: replayCorrectiveRetrieval(replay),
    };
    await writeFile(join(dir, "config.json"), `${JSON.stringify(config, null, 2)}\n`);
    process.env[REPLAY_KEY_VARIABLE] = "replay";
    for (const run of target.runs) {
      process.stderr.write(`${run.name} …\n`);
      await saveTable(
        join(out, `${run.name}.jsonl`),
        await featureTable(run.name, dir, run.questions, run.compare),
      );
    }
  } finally {
    delete process.env[REPLAY_KEY_VARIABLE];
    await replay.server.close();
  }
}
