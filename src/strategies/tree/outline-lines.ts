// The outline line format shared by single-pass, chunked-tree and agentic (docs/reference/vectorless-strategies.md §4.3).
import type { SectionView } from "./document-tree.js";

const QUESTION_MAX = 120;
const QUESTION_MIN_CUT = 100;

/** One section as prompt lines: `- [id] title — summary — entities: … — numbers: …`, then `answers: …`. */
export function outlineLines(view: SectionView, depthOffset = 0): string[] {
  const { section } = view;
  const indent = "  ".repeat(Math.max(0, view.depth - depthOffset));
  let line = `${indent}- [${view.id}] ${oneLine(section.title)}`;
  if (section.summary) line += ` — ${oneLine(section.summary)}`;
  const entities = firstThree(section.axes?.entities);
  if (entities.length > 0) line += ` — entities: ${entities.join(", ")}`;
  const numbers = firstThree(section.axes?.numbers);
  if (numbers.length > 0) line += ` — numbers: ${numbers.join(", ")}`;
  const lines = [line];
  const question = section.candidateQuestions?.map((q) => oneLine(q)).find((q) => q !== "");
  if (question) lines.push(`${indent}    answers: ${cutQuestion(question)}`);
  return lines;
}

export function outlineText(views: readonly SectionView[], depthOffset = 0): string {
  return views.flatMap((v) => outlineLines(v, depthOffset)).join("\n");
}

function firstThree(values: readonly string[] | undefined): string[] {
  return (values ?? [])
    .map((v) => oneLine(v))
    .filter((v) => v !== "")
    .slice(0, 3);
}

/** Document text never spans prompt lines: a newline in a title could fake an outline entry. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Cut at the last space within 120 chars when it is past 100, else hard at 120, plus "…". */
function cutQuestion(question: string): string {
  if (question.length <= QUESTION_MAX) return question;
  const space = question.lastIndexOf(" ", QUESTION_MAX);
  const cut = space > QUESTION_MIN_CUT ? space : QUESTION_MAX;
  return `${question.slice(0, cut)}…`;
}
