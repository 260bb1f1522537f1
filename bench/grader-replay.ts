// Recorded grader replies, replayed through the real provider code: a loopback server speaking
// the Anthropic Messages protocol (test/support's fake model server) answers each grader request
// with the reply one strong model gave for the question the prompt contains. Figures measured
// this way are a replay of that model's judgement, labelled "replayed", never a live model's.
import { readFile } from "node:fs/promises";
import { type ModelServer, startModelServer } from "../test/support/model-server/model-server.js";

export interface GraderReplay {
  server: ModelServer;
  /** Requests whose question had no recorded reply (answered with an unusable reply: `correct`). */
  unmatched: () => number;
}

const QUESTION_LINE = "USER QUESTION:\n";
/** The environment variable a replaying bot's grader provider reads its (dummy) key from. */
export const REPLAY_KEY_VARIABLE = "SECOND_LOOK_REPLAY_KEY";

/**
 * A bot's `correctiveRetrieval` block grading through the replay (signal by default; `eval
 * --compare` sets the grader per setting). Set REPLAY_KEY_VARIABLE before the bot starts.
 */
export function replayCorrectiveRetrieval(replay: GraderReplay) {
  return {
    enabled: true,
    grader: "signal",
    graderTimeoutMs: 8000,
    graderProvider: { type: "anthropic", baseUrl: replay.server.url, apiKeyEnv: REPLAY_KEY_VARIABLE },
  };
}

/** `repliesFile`: `{ id, reply }` per line; `questionsFile`: `{ id, text }` per line. */
export function startGraderReplay(repliesFile: string, questionsFile: string): Promise<GraderReplay> {
  return startGraderReplays([{ repliesFile, questionsFile }]);
}

/** One server replaying several files' replies (e.g. one per question language). */
export async function startGraderReplays(
  files: readonly { repliesFile: string; questionsFile: string }[],
): Promise<GraderReplay> {
  const byQuestion = new Map<string, unknown>();
  for (const { repliesFile, questionsFile } of files) {
    const replies = new Map<string, unknown>();
    for (const line of (await readFile(repliesFile, "utf8")).split("\n")) {
      if (line.trim() === "") continue;
      const { id, reply } = JSON.parse(line) as { id: string; reply: unknown };
      replies.set(id, reply);
    }
    for (const line of (await readFile(questionsFile, "utf8")).split("\n")) {
      if (line.trim() === "") continue;
      const { id, text } = JSON.parse(line) as { id: string; text: string };
      if (replies.has(id)) byQuestion.set(oneLine(text), replies.get(id));
    }
  }
  let unmatched = 0;
  const server = await startModelServer({
    maxRequests: 100_000,
    script: ({ messages }) => {
      const prompt = messages.find((m) => m.role === "user")?.text ?? "";
      const at = prompt.indexOf(QUESTION_LINE);
      const question = at < 0 ? "" : prompt.slice(at + QUESTION_LINE.length).split("\n")[0]!;
      const reply = byQuestion.get(oneLine(question));
      if (reply === undefined) unmatched++;
      return { kind: "text", text: reply === undefined ? "no recorded reply" : JSON.stringify(reply) };
    },
  });
  return { server, unmatched: () => unmatched };
}

// The grader prompt shows the question on one line, collapsed.
function oneLine(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}
