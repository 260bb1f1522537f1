// The nodejs-api set's questions (bench/data/nodejs-api): the file reads as judged questions,
// keeps the set's own rules, and its README states the counts the file holds.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { benchDataDir } from "../../bench/docbots/data.js";
import { readJudgedQuestions } from "../../src/evaluation/judged-questions.js";

const dir = join(benchDataDir, "nodejs-api");

async function rawRows(): Promise<Record<string, unknown>[]> {
  const text = await readFile(join(dir, "queries.jsonl"), "utf8");
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("nodejs-api queries", () => {
  it("read as judged questions, with the set's sizes", async () => {
    const questions = await readJudgedQuestions(join(dir, "queries.jsonl"));
    const answerable = questions.filter((q) => q.kind === "answerable");
    expect(questions.length).toBeGreaterThanOrEqual(60);
    expect(questions.length - answerable.length).toBeGreaterThanOrEqual(15);
    expect(new Set(questions.map((q) => q.text)).size).toBe(questions.length);
  });

  it("keep the set's fields: style, vocab only on answerable ones, 1–3 page names", async () => {
    for (const row of await rawRows()) {
      expect(Object.keys(row).sort()).toEqual(["id", "kind", "note", "relevant", "style", "text", "vocab"]);
      expect(row.id).toMatch(/^nd\d{3}$/);
      expect(["question", "keywords"]).toContain(row.style);
      expect(String(row.note).length).toBeGreaterThan(0);
      const relevant = row.relevant as string[];
      if (row.kind === "answerable") {
        expect(["paraphrase", "shared"]).toContain(row.vocab);
        expect(relevant.length).toBeGreaterThanOrEqual(1);
        expect(relevant.length).toBeLessThanOrEqual(3);
        for (const page of relevant) expect(page).toMatch(/^[a-z0-9_-]+\.md$/);
      } else {
        expect(row.vocab).toBeNull();
        expect(relevant).toEqual([]);
      }
    }
  });

  it("are counted as the README says", async () => {
    const rows = await rawRows();
    const readme = await readFile(join(dir, "README.md"), "utf8");
    const answerable = rows.filter((r) => r.kind === "answerable");
    const paraphrase = answerable.filter((r) => r.vocab === "paraphrase").length;
    const share = Math.round((100 * paraphrase) / answerable.length);
    expect(readme).toContain(`**${paraphrase} of ${answerable.length} (${share} %)**`);
    const cell = (kind: string, vocab: string | null, style: string) =>
      rows.filter((r) => r.kind === kind && r.vocab === vocab && r.style === style).length;
    // A table row whatever its padding (the formatter aligns the columns).
    const tableRow = (label: string, ...cells: number[]) =>
      new RegExp(
        `\\|\\s*${label.replace(/[*]/g, "\\*")}\\s*${cells.map((c) => `\\|\\s*${c}\\s*`).join("")}\\|`,
      );
    expect(readme).toMatch(
      tableRow(
        "answerable, shared",
        cell("answerable", "shared", "question"),
        cell("answerable", "shared", "keywords"),
      ),
    );
    expect(readme).toMatch(
      tableRow(
        "answerable, paraphrase",
        cell("answerable", "paraphrase", "question"),
        cell("answerable", "paraphrase", "keywords"),
      ),
    );
    expect(readme).toMatch(
      tableRow(
        "unanswerable",
        cell("unanswerable", null, "question"),
        cell("unanswerable", null, "keywords"),
      ),
    );
    expect(readme).toMatch(tableRow("**total**", rows.filter((r) => r.style === "question").length));
  });
});
