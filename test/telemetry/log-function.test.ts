import { afterEach, describe, expect, it } from "vitest";
import {
  createLogger,
  type LogEntry,
  logger,
  setLogFunction,
  setLogger,
} from "../../src/telemetry/logger.js";

describe("setLogFunction", () => {
  afterEach(() => setLogger(createLogger({ level: "silent" })));

  it("hands each record to the function as an object, redacted as on stderr", () => {
    const seen: LogEntry[] = [];
    setLogFunction((entry) => seen.push(entry), { level: "debug" });
    logger().warn({ tool: "search_knowledge", apiKey: "sk-secret" }, "something happened");
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ level: 40, msg: "something happened", tool: "search_knowledge" });
    expect(seen[0]!.apiKey).toBe("[redacted]");
  });

  it("a throwing function loses the record, never the caller's work", () => {
    setLogFunction(() => {
      throw new Error("sink down");
    });
    expect(() => logger().error("still fine")).not.toThrow();
  });

  it("keeps an error's message and stack through pino's err serializer", () => {
    const seen: LogEntry[] = [];
    setLogFunction((entry) => seen.push(entry));
    logger().warn({ err: new Error("grader failed") }, "corrective: grader failed");
    expect(seen[0]!.err).toMatchObject({ type: "Error", message: "grader failed" });
  });
});
