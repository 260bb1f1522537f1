// Acceptance 2 of the grader issue, through the CLI in-process: `second-look search <bot> <q>
// --json` for a bot folder with grader "haiku" and an Anthropic-type provider at a loopback
// baseUrl applies the model's verdict. Also: graderProvider wins over the bot's provider,
// "auto" asks the model only where the signal is borderline, and a missing key degrades to
// the signal with a warning that names the variable.
import { cp, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { SearchJson } from "../../src/cli/search.js";
import { GRADER_SYSTEM_PROMPT } from "../../src/corrective/knowledge-grader.js";
import { AUTO_BAND_TOP, AUTO_MAX_GAP } from "../../src/corrective/signal-grader.js";
import { NOT_COVERED_NOTE_START } from "../../src/knowledge-tool/result-text.js";
import { setLogger } from "../../src/telemetry/logger.js";
import { isWeak } from "../../src/weakness.js";
import { captureLog } from "../llm/log-capture.js";
import { e2eSession } from "../support/e2e-session.js";
import { cliOutput, runCli } from "../support/run-cli.js";
import { directiveScript } from "./connector/fixtures.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const KEY_ENV = "SECOND_LOOK_GRADER_E2E_KEY";
const KEY = "sk-ant-e2e-grader-secret-77";
/** Weak on the handbook, every word in some page: the signal cannot say why, so auto asks. */
// Weak at the weak threshold (0.25).
const WEAK_QUERY = "social event budget";
/** "stock" and "vesting" are in no handbook page: the signal already knows why it is weak. */
const UNCOVERED_QUERY = "stock options vesting schedule";
/** The scripted grader's rewrite: it finds pages WEAK_QUERY's first search did not show. */
const REWRITE = "time off in lieu";

// The grader model: whatever it is shown, the result is "insufficient" with a rewrite. Any
// other request is the bot's own model turn (for `ask`), driven by the question's directive.
const e2e = e2eSession("second-look-haiku-", {
  script: (request) => {
    const system = request.messages.find((m) => m.role === "system");
    if (system && "text" in system && system.text === GRADER_SYSTEM_PROMPT) {
      return {
        kind: "text",
        text: `Here is my grade:\n{"verdict":"insufficient","rewrittenQuery":"${REWRITE}","reason":"no page on team offsites"}`,
      };
    }
    return directiveScript(request);
  },
});

async function makeBot(
  name: string,
  corrective: Record<string, unknown>,
  provider?: Record<string, unknown>,
) {
  const dir = join(e2e.root, name);
  await cp(join(repo, "bots/handbook/docs"), join(dir, "docs"), { recursive: true });
  const config = {
    ...(provider ? { model: "bot-model", provider } : {}),
    knowledge: { backend: "embedded", collections: { handbook: { paths: ["docs/**/*.md"] } } },
    correctiveRetrieval: { enabled: true, ...corrective },
  };
  await writeFile(join(dir, "config.json"), JSON.stringify(config));
  await writeFile(join(dir, "persona.md"), "You answer from the handbook.");
  return dir;
}

const anthropic = () => ({ type: "anthropic", baseUrl: e2e.server.url, apiKeyEnv: KEY_ENV });

async function search(dir: string, query: string): Promise<SearchJson> {
  return JSON.parse(await cliOutput(["search", dir, query, "--json"])) as SearchJson;
}

describe("second-look search with the haiku grader", () => {
  it("applies the grader's verdict: graderMode is haiku and queriesTried holds its rewrite", async () => {
    process.env[KEY_ENV] = KEY;
    const dir = await makeBot("haiku", { grader: "haiku" }, anthropic());
    const from = e2e.server.requests.length;
    const result = await search(dir, WEAK_QUERY);

    expect(result.outcome?.metadata.graderMode).toBe("haiku");
    expect(result.outcome?.metadata.queriesTried).toEqual([REWRITE]);
    expect(result.outcome?.metadata.verdicts[0]).toBe("insufficient");
    expect(result.outcome?.metadata.reasons[0]).toBe("no page on team offsites");
    expect(result.final).toContain(`re-searched "${REWRITE}"`);

    // One model call, on the Messages API, with the key, the default grader model and the digest.
    const calls = e2e.server.requests.slice(from);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.path).toBe("/v1/messages");
    expect(calls[0]!.headers["x-api-key"]).toBe(KEY);
    expect((calls[0]!.body as { model: string }).model).toBe("claude-haiku-4-5");
    const prompt = calls[0]!.parsed.messages.find((m) => m.role === "user");
    expect(prompt && "text" in prompt ? prompt.text : "").toMatch(
      /\[1\] .+ \(\d+\.\d% · medium\) — handbook\//,
    );
  });

  it("graderProvider and graderModel win over the bot's provider", async () => {
    process.env[KEY_ENV] = KEY;
    const dir = await makeBot(
      "grader-provider",
      {
        grader: "haiku",
        graderModel: "small-grader",
        graderProvider: { type: "openai", baseUrl: e2e.server.openAiBaseUrl },
      },
      { type: "anthropic", baseUrl: "http://127.0.0.1:9", apiKeyEnv: KEY_ENV },
    );
    const from = e2e.server.requests.length;
    const result = await search(dir, WEAK_QUERY);
    expect(result.outcome?.metadata.queriesTried).toEqual([REWRITE]);
    const calls = e2e.server.requests.slice(from);
    expect(calls.map((c) => c.path)).toEqual(["/v1/chat/completions"]);
    expect((calls[0]!.body as { model: string }).model).toBe("small-grader");
  });

  it("auto asks the model only when the signal is borderline: weak, or a middling top hit close to the second, with every query word in some page", async () => {
    process.env[KEY_ENV] = KEY;
    const dir = await makeBot("auto", { grader: "auto" }, anthropic());
    const from = e2e.server.requests.length;
    const confident = await search(dir, "parental leave"); // best hit high: the signal decides
    expect(e2e.server.requests.length - from).toBe(0);
    expect(confident.outcome).toBeNull();

    // Best hit medium, just above the weak line, but well ahead of the second hit: a found answer
    // usually stands out like this, so the signal keeps it (src/corrective/signal-grader.ts).
    const nearWeak = await search(dir, "event budget approval");
    const [top, second] = nearWeak.response.results;
    expect(top!.band).toBe("medium");
    expect(nearWeak.response.bestScore).toBeLessThan(AUTO_BAND_TOP);
    expect(top!.relevance - (second?.relevance ?? 0)).toBeGreaterThanOrEqual(AUTO_MAX_GAP);
    expect(isWeak(nearWeak.response)).toBe(false);
    expect(e2e.server.requests.length - from).toBe(0);

    // Weak, and no query word is missing from the index: the model is asked, and its rewrite runs.
    const weak = await search(dir, WEAK_QUERY);
    expect(e2e.server.requests.length - from).toBe(1);
    expect(weak.outcome?.metadata.graderMode).toBe("haiku");
    expect(weak.outcome?.metadata.queriesTried).toEqual([REWRITE]);

    // Weak because two words are in no page: the signal's rescue answers, with no model call,
    // and the text ends with the one not-covered line naming them.
    const uncovered = await search(dir, UNCOVERED_QUERY);
    expect(e2e.server.requests.length - from).toBe(1);
    expect(uncovered.outcome?.metadata.graderMode).toBe("signal");
    expect(uncovered.outcome?.metadata.notCovered?.terms).toEqual(["stock", "vesting"]);
    expect(uncovered.final.split("\n").at(-1)!.startsWith(NOT_COVERED_NOTE_START)).toBe(true);
  });

  it("an unset key variable: the signal grades, and the warning names the variable", async () => {
    delete process.env[KEY_ENV];
    const { log, text } = captureLog();
    setLogger(log);
    const dir = await makeBot("no-key", { grader: "haiku" }, anthropic());
    const from = e2e.server.requests.length;
    const result = await search(dir, WEAK_QUERY);
    expect(e2e.server.requests.length - from).toBe(0);
    expect(result.outcome?.metadata.graderMode).toBe("signal");
    expect(result.outcome?.metadata.retries).toBe(1);
    expect(text()).toContain(`${KEY_ENV} (named by provider.apiKeyEnv) is not set`);
    expect(text()).not.toContain("not in this build");
  });

  it("a bot without a provider grades through Copilot; with no sign-in the grade fails soft", async () => {
    for (const name of ["GH_TOKEN", "GITHUB_TOKEN", "COPILOT_GITHUB_TOKEN"]) delete process.env[name];
    const { log, text } = captureLog();
    setLogger(log);
    const dir = await makeBot("copilot", { grader: "haiku", graderTimeoutMs: 15_000 });
    const result = await search(dir, WEAK_QUERY);
    // The model was asked (through the real Copilot runtime), could not answer, and so the
    // result stands: the grader's failure is "correct", never a worse search.
    expect(result.outcome?.metadata).toMatchObject({
      graderMode: "haiku",
      verdicts: ["correct"],
      reasons: ["grader unavailable"],
    });
    expect(result.final).toBe(result.original);
    expect(text()).toContain("copilot: session error");
  }, 60_000);

  it("ask --trace: the grader's chat span sits under the tool call, beside the re-query", async () => {
    process.env[KEY_ENV] = KEY;
    const dir = await makeBot("traced", { grader: "haiku" }, anthropic());
    const run = await runCli(["ask", dir, `search: ${WEAK_QUERY}`, "--trace"]);
    const err = run.stderr;
    expect(run.exitCode).toBe(0);
    const tree = err.split("\n").filter((line) => !line.startsWith("{"));
    const tool = tree.findIndex((l) => /[├└]─ execute_tool search_knowledge/.test(l));
    expect(tool).toBeGreaterThanOrEqual(0);
    const toolIndent = tree[tool]!.search(/[├└]/);
    // The lines nested under the tool call (deeper indentation), up to the next sibling.
    const under: string[] = [];
    for (const line of tree.slice(tool + 1)) {
      const at = line.search(/[├└]/);
      if (at <= toolIndent) break;
      under.push(line);
    }
    expect(under.join("\n")).toMatch(/chat claude-haiku-4-5/);
    expect(under.join("\n")).toMatch(/knowledge_requery .*queries="time off in lieu"/);
    expect(under.join("\n")).toMatch(/knowledge_grade .*mode="haiku"/);
  }, 60_000);
});
