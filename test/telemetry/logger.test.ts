// The process logger: readable lines on a terminal, JSON otherwise or when asked, and an
// unusable SECOND_LOOK_LOG_LEVEL / SECOND_LOOK_LOG_FORMAT named in a warning instead of a crash.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, humanMessage, logFormat } from "../../src/telemetry/logger.js";

function sink(): { stream: Writable; lines: () => string[] } {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, lines: () => text.split("\n").filter(Boolean) };
}

describe("log format", () => {
  it("is readable on a terminal and JSON when stderr is piped", () => {
    expect(logFormat({ stderrIsTty: true }, {})).toBe("pretty");
    expect(logFormat({ stderrIsTty: false }, {})).toBe("json");
  });

  it("SECOND_LOOK_LOG_FORMAT=json forces JSON on a terminal; a bad value is named and ignored", () => {
    expect(logFormat({ stderrIsTty: true }, { SECOND_LOOK_LOG_FORMAT: "json" })).toBe("json");
    const problems: string[] = [];
    expect(logFormat({ stderrIsTty: false }, { SECOND_LOOK_LOG_FORMAT: "fancy" }, problems)).toBe("json");
    expect(problems.join()).toMatch(/SECOND_LOOK_LOG_FORMAT="fancy"/);
  });

  it("pretty lines carry the message, not a JSON object; warnings add their fields on the same line", () => {
    const out = sink();
    const log = createLogger({ level: "info", destination: out.stream, format: "pretty", env: {} });
    log.info({ bot: "handbook", collections: ["a"] }, "bot handbook: embedded");
    log.warn({ err: new Error("connect ECONNREFUSED"), bot: "handbook" }, "slack: cannot connect");
    const [info, warn] = out.lines();
    expect(info).toMatch(/INFO.*bot handbook: embedded$/);
    expect(info).not.toContain("{");
    expect(warn).toMatch(/WARN.*slack: cannot connect \(err="connect ECONNREFUSED" bot=handbook\)$/);
    expect(out.lines()).toHaveLength(2);
  });

  it("humanMessage shows info fields only when debugging", () => {
    const entry = { level: 30, time: 1, msg: "indexed", files: 3 };
    expect(humanMessage(entry, "msg", false)).toBe("indexed");
    expect(humanMessage(entry, "msg", true)).toBe("indexed (files=3)");
  });

  it("JSON lines stay JSON for a given stream", () => {
    const out = sink();
    createLogger({ level: "info", destination: out.stream, env: {} }).info({ n: 1 }, "hello");
    expect(JSON.parse(out.lines()[0]!)).toMatchObject({ level: 30, msg: "hello", n: 1 });
  });
});

describe("SECOND_LOOK_LOG_LEVEL", () => {
  it("accepts 'warning' as warn (no error, no crash)", () => {
    const out = sink();
    const log = createLogger({ destination: out.stream, env: { SECOND_LOOK_LOG_LEVEL: "warning" } });
    expect(log.level).toBe("warn");
    log.info("hidden");
    log.warn("shown");
    expect(out.lines().map((l) => JSON.parse(l).msg)).toEqual(["shown"]);
  });

  it("an unknown level falls back to info with one warning naming the variable and the value", () => {
    const out = sink();
    const log = createLogger({ destination: out.stream, env: { SECOND_LOOK_LOG_LEVEL: "loud" } });
    expect(log.level).toBe("info");
    const [line] = out.lines().map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(line?.level).toBe(40);
    expect(line?.msg).toMatch(/^SECOND_LOOK_LOG_LEVEL="loud" is not a log level/);
  });
});
