// The handbook trace in docs/telemetry.md is a real run's: `ask handbook "<the weak handbook query>"
// --trace` prints the tree that page shows, durations aside.
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { HANDBOOK_WEAK_QUERY } from "../support/handbook-queries.js";
import { runCli } from "../support/run-cli.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** A weak query the pass re-queries: the tree shows a re-query span (support/handbook-queries.ts). */
const QUESTION = HANDBOOK_WEAK_QUERY;

/** The tree lines, each duration replaced by `<ms>`. */
function tree(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => /^(execute_tool |invoke_agent |[├└│ ]+─ )/.test(line))
    .map((line) => line.replace(/ {2}\d+(\.\d+)? ms/, "  <ms>"));
}

describe("the handbook trace in docs/telemetry.md", () => {
  it("is what `ask handbook --trace` prints", async () => {
    const readme = await readFile(join(REPO, "docs/telemetry.md"), "utf8");
    const section = readme.slice(readme.indexOf(`\`ask handbook "${QUESTION}" --trace\``));
    const block = section.slice(
      section.indexOf("```\n") + 4,
      section.indexOf("\n```", section.indexOf("```\n") + 4),
    );
    const shown = tree(block);
    expect(shown.length).toBeGreaterThan(1);

    const run = await runCli(["ask", join(REPO, "bots/handbook"), QUESTION, "--trace"]);
    expect(run.exitCode).toBe(0);
    expect(tree(run.stderr)).toEqual(shown);
  });
});
