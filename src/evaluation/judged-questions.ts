// Judged questions for a bot, one JSON object a line (the layout of
// ../shared/data/pydocs/queries.jsonl, documented in README "Judging a bot: eval"):
//   {"id", "text", "kind": "answerable"|"unanswerable", "relevant": [paths], "style"?, "vocab"?}
// `relevant` names the answering documents by path; a bot's doc id matches when it is that path
// or ends with "/" + that path, so `library/pathlib.html` finds `docs/library/pathlib.html`.
import * as z from "zod";
import { EvaluationError } from "./evaluation-error.js";
import { readLines } from "./line-reader.js";

/** A file of this many questions is a mistake (a corpus passed by accident), not a question set. */
export const MAX_JUDGED_QUESTIONS = 100_000;
/** Longer question texts are cut by the engine anyway; a longer line is a broken file. */
const MAX_QUESTION_CHARS = 4_000;

const nonEmpty = z.string().trim().min(1);

export const judgedQuestionSchema = z
  .object({
    id: z.union([nonEmpty, z.number().int()]).transform(String),
    text: nonEmpty.max(MAX_QUESTION_CHARS),
    kind: z.enum(["answerable", "unanswerable"]),
    relevant: z.array(nonEmpty).default([]),
    style: nonEmpty.nullish(),
    vocab: nonEmpty.nullish(),
  })
  .superRefine((q, ctx) => {
    if (q.kind === "answerable" && q.relevant.length === 0) {
      ctx.addIssue({
        code: "custom",
        path: ["relevant"],
        message: "an answerable question needs at least one path",
      });
    }
    if (q.kind === "unanswerable" && q.relevant.length > 0) {
      ctx.addIssue({ code: "custom", path: ["relevant"], message: "an unanswerable question lists no path" });
    }
  });

export type JudgedQuestion = z.output<typeof judgedQuestionSchema>;

/** A line of the questions file that is not a judged question; the message names file and line. */
export class JudgedQuestionsError extends EvaluationError {
  constructor(message: string) {
    super("bad-questions", message);
    this.name = "JudgedQuestionsError";
  }
}

/** Reads and validates every line (blank lines skipped); fails on the first bad one, naming it. */
export async function readJudgedQuestions(file: string): Promise<JudgedQuestion[]> {
  const out: JudgedQuestion[] = [];
  const ids = new Set<string>();
  let lines: AsyncGenerator<{ text: string; number: number }>;
  try {
    lines = readLines(file);
  } catch (error) {
    throw new JudgedQuestionsError(`${file}: ${(error as Error).message}`);
  }
  try {
    for await (const { text, number } of lines) {
      if (text.trim() === "") continue;
      const where = `${file}:${number}`;
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch {
        throw new JudgedQuestionsError(`${where}: malformed JSON`);
      }
      const parsed = judgedQuestionSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const key = issue.path.length ? `"${issue.path.join(".")}"` : "the line";
        throw new JudgedQuestionsError(`${where}: ${key}: ${issue.message}`);
      }
      if (ids.has(parsed.data.id))
        throw new JudgedQuestionsError(`${where}: duplicate id "${parsed.data.id}"`);
      ids.add(parsed.data.id);
      out.push(parsed.data);
      if (out.length > MAX_JUDGED_QUESTIONS) {
        throw new JudgedQuestionsError(`${file}: more than ${MAX_JUDGED_QUESTIONS} questions`);
      }
    }
  } catch (error) {
    if (error instanceof JudgedQuestionsError) throw error;
    throw new JudgedQuestionsError(`${file}: ${(error as Error).message}`);
  }
  return out;
}

/** A doc id with forward slashes, as judged paths are compared with it. */
const docPath = (docId: string) => docId.replaceAll("\\", "/");
/** A judged path as compared: forward slashes, no leading "./" or "/". */
const judgedPathKey = (path: string) => path.replaceAll("\\", "/").replace(/^\.?\//, "");

/** Whether a bot's doc id is the judged path: equal, or ending with "/" + path. */
export function matchesJudgedPath(docId: string, path: string): boolean {
  const id = docPath(docId);
  const wanted = judgedPathKey(path);
  return id === wanted || id.endsWith(`/${wanted}`);
}

/** The 1-based rank of the first answering document in `ranking`, or 0 when none answers. */
export function firstAnswerRank(ranking: readonly string[], relevant: readonly string[]): number {
  for (let i = 0; i < ranking.length; i++) {
    if (relevant.some((path) => matchesJudgedPath(ranking[i]!, path))) return i + 1;
  }
  return 0;
}

/** A judged path that no document of the bot answers to (a typo, or a page the bot lacks). */
export interface UnmatchedPath {
  question: string;
  path: string;
}

/**
 * Every (question, path) whose path matches none of `docIds` (the rule of matchesJudgedPath). Each
 * id's path suffixes go into one set first, so a large bot costs one pass over its ids.
 */
export function unmatchedJudgedPaths(
  questions: readonly Pick<JudgedQuestion, "id" | "relevant">[],
  docIds: Iterable<string>,
): UnmatchedPath[] {
  const suffixes = new Set<string>();
  for (const docId of docIds) {
    const id = docPath(docId);
    suffixes.add(id);
    for (let slash = id.indexOf("/"); slash >= 0; slash = id.indexOf("/", slash + 1)) {
      suffixes.add(id.slice(slash + 1));
    }
  }
  const out: UnmatchedPath[] = [];
  for (const q of questions) {
    for (const path of q.relevant) {
      if (!suffixes.has(judgedPathKey(path))) out.push({ question: q.id, path });
    }
  }
  return out;
}
