// The exact grader prompts of a judged set, for recorded grader replies: a person or a model
// acting as the grader answers each file from the prompt alone (no questions file, no
// judgments), and those replies are committed labelled as recorded and replayed
// (bench/grader-replay.ts), never as a live model's figures.
//
//   node --import tsx bench/grader-prompts.ts <set> <outDir>     set: nodejs-api | debian-handbook
//
// The set's bot is built as the benches build it, with `correctiveRetrieval` grading by the
// model ("haiku") through the Anthropic provider code pointed at a loopback fake model server
// (test/support) that records every request and answers each with a neutral `correct` grade, and
// is judged by `second-look eval` in-process. For each question, <outDir>/<id>.txt holds the
// first grader request whose prompt carries that question, byte for byte as the provider client
// sent it: the system prompt, a separator line, the user message. <outDir>/README.txt holds only
// the reply format the grader's parser accepts.
import { mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { readJudgedQuestions } from "../src/evaluation/judged-questions.js";
import { startModelServer } from "../test/support/model-server/model-server.js";
import { HANDBOOK } from "./debian-handbook/set.js";
import { nodejsApiBotDir, nodejsApiQuestions } from "./docbots/collections.js";
import { evalInProcess } from "./eval-in-process.js";
import { REPLAY_KEY_VARIABLE } from "./grader-replay.js";
import { linkTree, questionsFile, setBotConfig, setBotDir } from "./multilingual/set.js";

export const SEPARATOR = "=====8<===== USER MESSAGE =====8<=====";
const QUESTION_LINE = "USER QUESTION:\n";
/** A grade that changes nothing: one grader request per search, no re-query. */
const NEUTRAL_REPLY = JSON.stringify({ verdict: "correct", reason: "recorded prompt" });

const README = `Reply to each prompt with only a JSON object, with no prose and no code fence:
{"verdict": "correct" | "ambiguous" | "insufficient", "rewrittenQuery"?: "...", "alternativeQueries"?: ["..."] (up to 3), "hypotheticalAnswer"?: "..." (2-3 sentences), "suggestedCollection"?: "...", "reason": "..."}
The prompt's own instructions say when each field is given.
`;

interface SetBot {
  dir: string;
  questions: string;
}

/** The set's bot folder (its own, so no bench's index or config is touched) and its questions file. */
async function setBot(set: string, grading: Record<string, unknown>): Promise<SetBot> {
  const dir = join(tmpdir(), `second-look-grader-prompts-${set}`);
  if (set === "nodejs-api") {
    const built = await nodejsApiBotDir();
    await mkdir(dir, { recursive: true });
    await rm(join(dir, "docs"), { recursive: true, force: true });
    // Hard links, not a link to the folder: a bot reads only files inside its own folder.
    await linkTree(join(built, "docs"), join(dir, "docs"));
    const config = {
      description: "Node.js 18 API reference (benchmark; grader prompts recorded)",
      knowledge: { backend: "embedded", collections: { "nodejs-api": { paths: ["docs/**/*.md"] } } },
      correctiveRetrieval: grading,
    };
    await writeFile(join(dir, "config.json"), `${JSON.stringify(config, null, 2)}\n`);
    return { dir, questions: nodejsApiQuestions };
  }
  if (set === "debian-handbook") {
    const english = HANDBOOK.languages.find((l) => l.code === "en-us")!;
    await setBotDir(HANDBOOK, english, "tag", dir);
    const config = setBotConfig(HANDBOOK, english, "tag");
    config.correctiveRetrieval = { ...(config.correctiveRetrieval as object), ...grading };
    await writeFile(join(dir, "config.json"), `${JSON.stringify(config, null, 2)}\n`);
    return { dir, questions: questionsFile(HANDBOOK, english.code) };
  }
  throw new Error(`unknown set "${set}"; use nodejs-api or debian-handbook`);
}

const oneLine = (text: string) =>
  text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/** System prompt and user message exactly as the request body carried them. */
function promptOf(raw: string): { system: string; user: string } {
  const body = JSON.parse(raw) as { system?: unknown; messages?: { role: string; content: unknown }[] };
  const user = body.messages?.find((m) => m.role === "user")?.content;
  if (typeof body.system !== "string" || typeof user !== "string") {
    throw new Error(`a grader request not in the expected shape: ${raw.slice(0, 200)}`);
  }
  return { system: body.system, user };
}

async function main(set: string | undefined, outDir: string | undefined): Promise<void> {
  if (!set || !outDir) throw new Error("usage: grader-prompts.ts <nodejs-api|debian-handbook> <outDir>");
  const server = await startModelServer({
    maxRequests: 100_000,
    script: () => ({ kind: "text", text: NEUTRAL_REPLY }),
  });
  process.env[REPLAY_KEY_VARIABLE] = "recording";
  try {
    const bot = await setBot(set, {
      enabled: true,
      grader: "haiku",
      graderTimeoutMs: 8000,
      graderProvider: { type: "anthropic", baseUrl: server.url, apiKeyEnv: REPLAY_KEY_VARIABLE },
    });
    process.stderr.write(`judging ${bot.dir} with ${bot.questions} …\n`);
    await evalInProcess([bot.dir, "--questions", bot.questions]);
    const byQuestion = new Map<string, { system: string; user: string }>();
    for (const request of server.requests) {
      const prompt = promptOf(request.raw);
      const at = prompt.user.indexOf(QUESTION_LINE);
      if (at < 0) throw new Error(`a grader request without a question: ${prompt.user.slice(0, 200)}`);
      const question = prompt.user.slice(at + QUESTION_LINE.length).split("\n")[0]!;
      if (!byQuestion.has(question)) byQuestion.set(question, prompt);
    }
    const out = resolve(outDir);
    await mkdir(out, { recursive: true });
    const missing: string[] = [];
    let written = 0;
    for (const q of await readJudgedQuestions(bot.questions)) {
      const prompt = byQuestion.get(oneLine(q.text));
      if (!prompt) {
        missing.push(q.id);
        continue;
      }
      await writeFile(join(out, `${q.id}.txt`), `${prompt.system}\n${SEPARATOR}\n${prompt.user}`);
      written++;
    }
    await writeFile(join(out, "README.txt"), README);
    process.stderr.write(
      `${set}: ${written} prompts in ${out} (${server.requests.length} grader requests)` +
        (missing.length ? `; no grader request for ${missing.join(", ")}` : "") +
        "\n",
    );
    if (missing.length) process.exitCode = 1;
  } finally {
    delete process.env[REPLAY_KEY_VARIABLE];
    await server.close();
  }
}

await main(process.argv[2], process.argv[3]);
