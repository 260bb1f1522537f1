// Issue 32, D7, at the command line: `ask --answer` whose model replies with zero-width
// characters only exits 1 with one line saying the answer was empty — it printed an "answer"
// that shows nothing and exited 0.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedProviderServer } from "../llm/scripted-provider-server.js";
import { runCli } from "../support/run-cli.js";

const KEY_ENV = "SECOND_LOOK_INVISIBLE_ANSWER_KEY";
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "second-look-invisible-answer-"));
  process.env[KEY_ENV] = "sk-invisible-answer-test";
});
afterAll(async () => {
  delete process.env[KEY_ENV];
  if (root) await rm(root, { recursive: true, force: true });
});

describe("ask --answer when the model's answer shows nothing", () => {
  it("zero-width, joiner, word-joiner and tag characters: exit 1 and one line, no blank answer", async () => {
    const invisible = "\u200B\u200D\u2060\uFEFF\u{E0069}\u{E0067} \u200B";
    const server = await startScriptedProviderServer([{ reply: { kind: "text", text: invisible } }]);
    try {
      const dir = join(root, "invisible");
      await mkdir(join(dir, "docs"), { recursive: true });
      await writeFile(
        join(dir, "docs", "leave.md"),
        "# Leave\n\nEvery employee gets 25 vacation days a year.\n",
      );
      await writeFile(
        join(dir, "config.json"),
        JSON.stringify({
          model: "answer-model",
          provider: { type: "openai", baseUrl: `${server.url}/v1`, apiKeyEnv: KEY_ENV },
          knowledge: { backend: "embedded", collections: { handbook: { paths: ["docs/**/*.md"] } } },
        }),
      );
      const run = await runCli(["ask", dir, "how many vacation days do I get", "--answer", "--json"]);
      expect(run.stdout).toBe("");
      expect(run.exitCode).toBe(1);
      const lines = run.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^second-look ask: the model answer-model .* did not answer: .*empty answer/);
    } finally {
      await server.close();
    }
    // Indexing starts a parser thread, which loads through tsx in tests: seconds on a busy machine.
  }, 60_000);
});
