import { createReadStream } from "node:fs";
import { StringDecoder } from "node:string_decoder";

export interface NumberedLine {
  /** The line without its terminator ("\n" or "\r\n"). */
  text: string;
  /** 1-based, for error messages that point at the offending line. */
  number: number;
}

/**
 * Streams a UTF-8 text file line by line, so a corpus of millions of lines is never held as
 * one string. Written over the raw stream rather than `readline` so that a read error (a
 * missing file, say) rejects the loop instead of being dropped.
 */
export async function* readLines(file: string): AsyncGenerator<NumberedLine> {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  let number = 0;
  const next = (raw: string): NumberedLine => {
    number++;
    let text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    // A byte-order mark is an encoding artefact, not part of the first record.
    if (number === 1 && text.startsWith("\uFEFF")) text = text.slice(1);
    return { text, number };
  };
  for await (const chunk of createReadStream(file)) {
    pending += decoder.write(chunk as Buffer);
    let start = 0;
    for (let nl = pending.indexOf("\n"); nl !== -1; nl = pending.indexOf("\n", start)) {
      yield next(pending.slice(start, nl));
      start = nl + 1;
    }
    pending = pending.slice(start);
  }
  pending += decoder.end();
  if (pending !== "") yield next(pending);
}
