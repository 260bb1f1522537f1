// On stdio, stdout carries MCP's JSON-RPC and nothing else: one stray line from a library (a
// console.log, a progress bar) corrupts the stream for the client. So the transport gets its own
// handle on the real stdout, and every other write to process.stdout, console.log included, is
// sent to stderr instead, where clients collect logs.
import { Writable } from "node:stream";

export interface GuardedStdout {
  /** The only way to the real stdout: give it to the MCP transport. */
  jsonRpc: Writable;
  /** Puts process.stdout.write back. */
  restore: () => void;
}

export function guardStdout(
  stdout: NodeJS.WriteStream = process.stdout,
  stderr: NodeJS.WritableStream = process.stderr,
): GuardedStdout {
  const realWrite = stdout.write;
  const writeReal = realWrite.bind(stdout) as (
    chunk: unknown,
    callback: (error?: Error | null) => void,
  ) => boolean;
  const jsonRpc = new Writable({
    // The callback waits for the real stream, so the transport's backpressure ('drain') is real.
    write(chunk, _encoding, callback) {
      writeReal(chunk, (error) => callback(error ?? null));
    },
  });
  const toStderr = ((chunk: unknown, encoding?: unknown, callback?: unknown) =>
    (stderr.write as (...args: unknown[]) => boolean)(chunk, encoding, callback)) as typeof stdout.write;
  stdout.write = toStderr;
  return {
    jsonRpc,
    restore: () => {
      stdout.write = realWrite;
    },
  };
}
