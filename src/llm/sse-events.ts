// Server-sent events (the streaming reply of both wire formats), read incrementally from a
// response body. Linear in the body: each byte is decoded once and each line is split once.
// Bounded: past `maxBytes` the read stops with an error instead of buffering a runaway stream.
import { SecondLookError } from "../errors.js";

export interface SseEvent {
  /** The `event:` field; "message" when the server sent none. */
  event: string;
  /** The `data:` lines joined with "\n". */
  data: string;
}

export class SseLimitError extends SecondLookError {
  override readonly name = "SseLimitError";

  constructor(message: string) {
    super("llm", "reply-too-large", message);
  }
}

/** Yields each event as soon as its terminating blank line has arrived. */
export async function* readSseEvents(
  body: AsyncIterable<Uint8Array | string>,
  options: { maxBytes: number },
): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let bytes = 0;
  let pending = "";
  let event = "";
  let data: string[] = [];
  let hasData = false;

  const takeLine = (line: string): SseEvent | undefined => {
    if (line === "") {
      if (!hasData) {
        event = "";
        return undefined;
      }
      const out = { event: event || "message", data: data.join("\n") };
      event = "";
      data = [];
      hasData = false;
      return out;
    }
    if (line.startsWith(":")) return undefined; // a comment (keep-alive)
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") {
      data.push(value);
      hasData = true;
    }
    return undefined;
  };

  for await (const chunk of body) {
    bytes += typeof chunk === "string" ? chunk.length : chunk.byteLength;
    if (bytes > options.maxBytes)
      throw new SseLimitError(`event stream larger than ${options.maxBytes} bytes`);
    // The leftover holds no newline, so the search resumes where the new text begins: a long
    // line arriving in many chunks is scanned once, not once per chunk.
    const searchFrom = pending.length;
    pending += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let nl = pending.indexOf("\n", searchFrom); nl >= 0; nl = pending.indexOf("\n", start)) {
      const end = nl > start && pending.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      const done = takeLine(pending.slice(start, end));
      start = nl + 1;
      if (done) yield done;
    }
    pending = pending.slice(start);
  }
  pending += decoder.decode();
  // A stream that ends without a final blank line still delivers its last event.
  if (pending !== "") {
    const done = takeLine(pending.endsWith("\r") ? pending.slice(0, -1) : pending);
    if (done) yield done;
  }
  const last = takeLine("");
  if (last) yield last;
}
