// Captures everything the process logger writes (at debug level), so a test can assert that a
// key never reaches a log line.
import { Writable } from "node:stream";
import { createLogger, type Logger } from "../../src/telemetry/logger.js";

export function captureLog(): { log: Logger; text: () => string } {
  let out = "";
  const destination = new Writable({
    write(chunk, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  return { log: createLogger({ level: "debug", destination }), text: () => out };
}
