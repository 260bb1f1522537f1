import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { runGrade } from "../../src/cli/grade.js";
import { muninnTextB, muninnTextC, textA, textE } from "../knowledge-tool/huginn-fixtures.js";

function sink(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

async function grade(input: string | Buffer[], json: boolean) {
  const stdout = sink();
  const stderr = sink();
  const stdin = Readable.from(typeof input === "string" ? [Buffer.from(input, "utf8")] : input);
  const code = await runGrade({ json }, { stdin, stdout: stdout.stream, stderr: stderr.stream });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

describe("second-look grade", () => {
  it("--json prints exactly the documented shape, keys in order", async () => {
    const result = await grade(muninnTextB, true);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(
      '{"verdict":"insufficient","reason":"the search flagged the result as low confidence","signal":"weak","hints":{"broaderQuery":"LA_BUC concepts"},"docKeys":["wiki/1"]}\n',
    );
  });
  it("--json for a confident result has empty hints and a null signal", async () => {
    const parsed = JSON.parse((await grade(textA, true)).stdout);
    expect(Object.keys(parsed)).toEqual(["verdict", "reason", "signal", "hints", "docKeys"]);
    expect(parsed).toEqual({
      verdict: "correct",
      reason: "no low-confidence signal from the search",
      signal: null,
      hints: {},
      docKeys: ["team-wiki/guides/Onboarding Guide.md", "team-wiki/it/VPN.md"],
    });
  });
  it("--json orders hint keys broader, narrower, related", async () => {
    const text =
      'No results found for \'q\'.\n\n*No confident match — try: related terms: a · narrower query: "n" · broader query: "b"*';
    const { stdout } = await grade(text, true);
    expect(stdout).toContain('"hints":{"broaderQuery":"b","narrowerQuery":"n","relatedTerms":["a"]}');
  });
  it("reads input split across chunks, including a multi-byte character cut in two", async () => {
    const bytes = Buffer.from(muninnTextC, "utf8");
    const dash = bytes.indexOf(Buffer.from("—", "utf8"));
    const { stdout } = await grade([bytes.subarray(0, dash + 1), bytes.subarray(dash + 1)], true);
    expect(JSON.parse(stdout)).toMatchObject({
      signal: "empty",
      hints: { narrowerQuery: "xyz precise term" },
    });
  });
  it("prints a short human summary without --json", async () => {
    const { code, stdout } = await grade(muninnTextB, false);
    expect(code).toBe(0);
    expect(stdout).toBe(
      'insufficient: the search flagged the result as low confidence\nhints: broader query "LA_BUC concepts"\nhits: 1 (wiki/1)\n',
    );
    expect((await grade(textE, false)).stdout).toContain("hits: 1 (jira-issues/PROJ-1234_Fix_login.md)");
  });
  it("grades empty input as correct", async () => {
    const { code, stdout } = await grade("", false);
    expect(code).toBe(0);
    expect(stdout).toBe("correct: no low-confidence signal from the search\nhits: 0\n");
  });
  it("refuses input over 32 MB with one error line on stderr and exit 1", async () => {
    const piece = Buffer.alloc(1024 * 1024, "a");
    const { code, stdout, stderr } = await grade(
      Array.from({ length: 33 }, () => piece),
      true,
    );
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/^second-look grade: input is larger than 32 MB/);
  });
});
