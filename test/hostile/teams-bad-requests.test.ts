// Issue 24, L7: unauthenticated requests to the Teams endpoint whose body the SDK cannot read —
// bad JSON, bad gzip, a body past the parser's bound — get a 4xx and one JSON log line each,
// never Express's default handler printing the error's stack to stderr (which it does outside
// NODE_ENV=test, so the test runs as production would).
import { gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTeamsApp, type TeamsApp } from "../../src/hosts/teams/app.js";
import { recordingLog } from "../hosts/support/silent-log.js";

let teams: TeamsApp;
let lines: Array<Record<string, unknown>>;
let savedEnv: string | undefined;

beforeEach(async () => {
  savedEnv = process.env.NODE_ENV;
  // Express reads it when the app is made: "test" silences the default handler's stack trace.
  process.env.NODE_ENV = "production";
  const recorded = recordingLog();
  lines = recorded.lines;
  teams = createTeamsApp(
    { clientId: "app-id", token: () => "unused" },
    { log: recorded.log, port: 0, host: "127.0.0.1" },
  );
  await teams.start();
});

afterEach(async () => {
  await teams.stop();
  if (savedEnv === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = savedEnv;
  vi.restoreAllMocks();
});

async function post(body: Uint8Array | string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${teams.port()}/api/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

describe("Teams endpoint, unreadable request bodies", () => {
  const cases: [string, () => [Uint8Array | string, Record<string, string>], number][] = [
    ["bad JSON", () => ['{"type": "message", ', {}], 400],
    ["bad gzip", () => [new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), { "content-encoding": "gzip" }], 400],
    ["gzip of bad JSON", () => [gzipSync("{not json"), { "content-encoding": "gzip" }], 400],
    ["an oversized body", () => [JSON.stringify({ text: "x".repeat(300 * 1024) }), {}], 413],
  ];
  for (const [name, make, status] of cases) {
    it(`${name}: ${status}, one JSON log line, no stack trace`, async () => {
      const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
      const stderrWrite = vi.spyOn(process.stderr, "write");
      const [body, headers] = make();
      expect(await post(body, headers)).toBe(status);
      expect(consoleError).not.toHaveBeenCalled();
      expect(stderrWrite).not.toHaveBeenCalled();
      const rejected = lines.filter((line) => String(line.msg).startsWith("teams: rejected a request"));
      expect(rejected).toHaveLength(1);
      expect(rejected[0]).toMatchObject({ status, path: "/api/messages" });
      expect(String(rejected[0]!.msg)).not.toContain("\n");
    });
  }
});
