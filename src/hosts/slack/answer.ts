// An answer as the Slack messages that carry it: Markdown cut into chunks Slack displays whole,
// each converted to mrkdwn, with the sources line under the last one.
import type { HostedAnswer } from "../hosted-answer.js";
import { splitMessage } from "../message-chunks.js";
import { slackSources, toSlackMrkdwn } from "./mrkdwn.js";

/**
 * Slack truncates a message at 40,000 characters and renders long ones poorly; chunks are cut
 * from the Markdown at 3,500 so that mrkdwn escaping (`&` → `&amp;`) stays far below the cap.
 */
export const SLACK_CHUNK_CHARS = 3_500;
const SLACK_MAX_MESSAGES = 8;

export function slackAnswerMessages(answer: HostedAnswer): string[] {
  if (!answer.ok) return [answer.sentence];
  const chunks = splitMessage(answer.answer, {
    maxChars: SLACK_CHUNK_CHARS,
    maxChunks: SLACK_MAX_MESSAGES,
  }).map(toSlackMrkdwn);
  const sources = slackSources(answer.citations.documents, answer.citations.named);
  if (sources) {
    const last = chunks.length - 1;
    if (last >= 0 && chunks[last]!.length + sources.length + 2 <= SLACK_CHUNK_CHARS + 500) {
      chunks[last] = `${chunks[last]}\n\n${sources}`;
    } else {
      chunks.push(sources);
    }
  }
  return chunks;
}
