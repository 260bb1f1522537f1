// `second-look grade [--json] < result.txt`: the signal grade of a tool-result text. It must
// start fast (< 300 ms), so it imports only the protocol parsers and the signal grader.

import { gradeFromText, type TextSignalGrade } from "../corrective/signal-grader.js";
import { errorMessage } from "../errors.js";
import { CliError } from "./cli-error.js";

/** Larger inputs are refused: no real tool result comes near it, and reading stays bounded. */
export const MAX_GRADE_INPUT_BYTES = 32 * 1024 * 1024;

export interface GradeOptions {
  json: boolean;
}

export interface GradeIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  /** Where the one-line error goes; process.stderr when absent. */
  stderr?: NodeJS.WritableStream;
}

/** Reads the result text from stdin, writes the grade to stdout; returns the exit code. */
export async function runGrade(options: GradeOptions, io: GradeIo): Promise<number> {
  const stderr = io.stderr ?? process.stderr;
  let text: string;
  try {
    text = await readCapped(io.stdin, MAX_GRADE_INPUT_BYTES);
  } catch (error) {
    stderr.write(`second-look grade: ${errorMessage(error)}\n`);
    return 1;
  }
  const grade = gradeFromText(text);
  io.stdout.write(options.json ? `${gradeJson(grade)}\n` : humanSummary(grade));
  return 0;
}

/**
 * The stable `--json` shape, keys in this order:
 * `{"verdict","reason","signal","hints":{"broaderQuery"?,"narrowerQuery"?,"relatedTerms"?},"docKeys"}`.
 */
export function gradeJson(grade: TextSignalGrade): string {
  const hints: { broaderQuery?: string; narrowerQuery?: string; relatedTerms?: string[] } = {};
  if (grade.hints.broaderQuery !== undefined) hints.broaderQuery = grade.hints.broaderQuery;
  if (grade.hints.narrowerQuery !== undefined) hints.narrowerQuery = grade.hints.narrowerQuery;
  if (grade.hints.relatedTerms !== undefined) hints.relatedTerms = grade.hints.relatedTerms;
  return JSON.stringify({
    verdict: grade.verdict,
    reason: grade.reason,
    signal: grade.signal,
    hints,
    docKeys: grade.docKeys,
  });
}

function humanSummary(grade: TextSignalGrade): string {
  const lines = [`${grade.verdict}: ${grade.reason}`];
  const hintParts: string[] = [];
  if (grade.hints.broaderQuery !== undefined) hintParts.push(`broader query "${grade.hints.broaderQuery}"`);
  if (grade.hints.narrowerQuery !== undefined)
    hintParts.push(`narrower query "${grade.hints.narrowerQuery}"`);
  if (grade.hints.relatedTerms !== undefined)
    hintParts.push(`related terms: ${grade.hints.relatedTerms.join(", ")}`);
  if (hintParts.length > 0) lines.push(`hints: ${hintParts.join("; ")}`);
  lines.push(
    `hits: ${grade.docKeys.length}${grade.docKeys.length > 0 ? ` (${grade.docKeys.join(", ")})` : ""}`,
  );
  return `${lines.join("\n")}\n`;
}

async function readCapped(stream: NodeJS.ReadableStream, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > maxBytes) {
      throw new CliError(`input is larger than ${maxBytes / (1024 * 1024)} MB; refusing to grade it`);
    }
    chunks.push(buffer);
  }
  // TextDecoder drops a leading byte-order mark; invalid bytes become U+FFFD rather than failing.
  return new TextDecoder("utf-8").decode(Buffer.concat(chunks, size));
}
