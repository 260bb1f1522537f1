// An answer as the Teams messages that carry it: Teams renders Markdown, so the model's text goes
// through as it is (mentions need entities in Teams, so text alone cannot ping anyone), cut into
// chunks well under the ~28 KB activity limit, with the sources as Markdown links at the end.
import type { CitedDocument } from "../cited-documents.js";
import type { HostedAnswer } from "../hosted-answer.js";
import { splitMessage } from "../message-chunks.js";

/** Characters per message: non-Latin text can take 3 bytes a character, and 3 × 7,000 < 28 KB. */
export const TEAMS_CHUNK_CHARS = 7_000;
const TEAMS_MAX_MESSAGES = 6;

function markdownLink(document: CitedDocument): string {
  const label = document.title.replace(/[[\]\\]/g, (c) => `\\${c}`).replace(/\s+/g, " ");
  if (!document.url) return `*${label}*`;
  // A bare `)` would end the Markdown link early (encodeURIComponent leaves parentheses alone).
  const target = document.url.replace(/\(/g, "%28").replace(/\)/g, "%29").replace(/\s/g, "%20");
  return `[${label}](${target})`;
}

export function teamsSources(documents: readonly CitedDocument[], named: boolean): string {
  if (documents.length === 0) return "";
  return `**${named ? "Sources" : "Related documents"}:** ${documents.map(markdownLink).join(" · ")}`;
}

export function teamsAnswerMessages(answer: HostedAnswer): string[] {
  if (!answer.ok) return [answer.sentence];
  const chunks = splitMessage(answer.answer, { maxChars: TEAMS_CHUNK_CHARS, maxChunks: TEAMS_MAX_MESSAGES });
  const sources = teamsSources(answer.citations.documents, answer.citations.named);
  if (sources) {
    const last = chunks.length - 1;
    if (last >= 0 && chunks[last]!.length + sources.length + 2 <= TEAMS_CHUNK_CHARS) {
      chunks[last] = `${chunks[last]}\n\n${sources}`;
    } else {
      chunks.push(sources);
    }
  }
  return chunks;
}
