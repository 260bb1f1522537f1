import { Writable } from "node:stream";
import { createLogger, logger, setLogger } from "../../src/telemetry/logger.js";

/** What the logger writes while `run` runs (JSON lines), then the previous logger again. */
export async function logLines<T>(run: () => Promise<T>): Promise<{ result: T; log: string }> {
  let log = "";
  const sink = new Writable({
    write(chunk, _encoding, done) {
      log += String(chunk);
      done();
    },
  });
  const previous = logger();
  setLogger(createLogger({ destination: sink }));
  try {
    return { result: await run(), log };
  } finally {
    setLogger(previous);
  }
}
