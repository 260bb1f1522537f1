// A generated three-page PDF with headings; a phrase from page 3 finds
// that section first, with its pages in `search --json` (`response.results`) and in the text.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { SearchJson } from "../../../src/cli/search.js";
import { PAGE_THREE_PHRASE, threePagePdf } from "../../fixtures/pdf/three-page-manual.js";
import { cliOutput } from "../../support/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "second-look-pdf-bot-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function botWith(withOutline: boolean): string {
  const bot = join(dir, withOutline ? "outlined" : "plain");
  mkdirSync(join(bot, "docs"), { recursive: true });
  writeFileSync(join(bot, "docs", "manual.pdf"), threePagePdf(withOutline));
  writeFileSync(join(bot, "docs", "other.md"), "# Other\n\nCalibration of the weather vane is yearly.\n");
  writeFileSync(
    join(bot, "config.json"),
    JSON.stringify({
      description: "PDF test bot",
      knowledge: {
        backend: "embedded",
        collections: { manuals: { paths: ["docs/**/*.pdf", "docs/**/*.md"] } },
      },
    }),
  );
  return bot;
}

describe("search over a PDF", () => {
  it.each([true, false])(
    "finds the page-3 section first with pages 3–3 (outline=%s)",
    async (withOutline) => {
      const bot = botWith(withOutline);
      const json = JSON.parse(
        await cliOutput(["search", bot, PAGE_THREE_PHRASE, "--json", "--no-correct"]),
      ) as SearchJson;
      const first = json.response.results[0]!;
      expect(first.id).toBe("docs/manual.pdf");
      expect(first.heading).toBe("Maintenance");
      expect(first.pages).toEqual({ start: 3, end: 3 });
      expect(json.final).toContain("collection: `manuals` doc_id: `docs/manual.pdf`\np. 3");

      const brief = await cliOutput(["search", bot, PAGE_THREE_PHRASE, "--brief", "--no-correct"]);
      expect(brief).toContain("   collection: `manuals` doc_id: `docs/manual.pdf`\n   p. 3");
    },
  );
});
