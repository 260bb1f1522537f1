// Chat platforms cap a message's length (Slack shows ~4,000 characters well and truncates at
// 40,000; Teams rejects activities over ~28 KB), and a model can write more than that. Long
// answers are cut at the most natural boundary that fits (paragraph, line, sentence, word), a
// code fence cut in two is closed and reopened so both halves render, and the number of
// messages per answer is bounded so one answer cannot flood a channel.

export interface ChunkOptions {
  /** Characters per message (>= 200). */
  maxChars: number;
  /** Messages per answer; the last one says the answer was cut. */
  maxChunks: number;
}

const TRUNCATED = "\n\n_(answer cut short: it was too long for chat)_";
const FENCE = "```";

/** Where to cut `text` so the first part is at most `limit` characters. */
function cutPoint(text: string, limit: number): number {
  const window = text.slice(0, limit);
  const floor = Math.floor(limit / 2);
  for (const boundary of ["\n\n", "\n", ". ", " "]) {
    const at = window.lastIndexOf(boundary);
    if (at >= floor) return at + boundary.length;
  }
  return limit;
}

/** Whether a code fence is open at the end of `text`. */
function endsInsideFence(text: string): boolean {
  let open = false;
  for (const line of text.split("\n")) if (line.trimStart().startsWith(FENCE)) open = !open;
  return open;
}

export function splitMessage(text: string, options: ChunkOptions): string[] {
  const maxChars = Math.max(200, options.maxChars);
  const maxChunks = Math.max(1, options.maxChunks);
  // Room for the fence repair added around a cut.
  const budget = maxChars - (FENCE.length + 2) * 2;
  const chunks: string[] = [];
  let rest = text.trim();
  while (rest.length > 0) {
    if (chunks.length === maxChunks - 1 && rest.length > maxChars) {
      const room = budget - TRUNCATED.length;
      let last = rest.slice(0, cutPoint(rest, room)).trimEnd();
      if (endsInsideFence(last)) last += `\n${FENCE}`;
      chunks.push(last + TRUNCATED);
      break;
    }
    if (rest.length <= maxChars) {
      chunks.push(rest);
      break;
    }
    let head = rest.slice(0, cutPoint(rest, budget));
    rest = rest.slice(head.length).trimStart();
    head = head.trimEnd();
    if (endsInsideFence(head)) {
      head += `\n${FENCE}`;
      rest = `${FENCE}\n${rest}`;
    }
    chunks.push(head);
  }
  return chunks;
}
