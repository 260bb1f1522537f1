// A Russian collection (`"language": "ru"`, prefix stems) on both backends: a query word in a form
// no section holds is searched as the form the collection holds (ranking-core/unseen-forms.ts).
// The PostgreSQL backend reads only candidate sections, so it looks that form up over the whole
// vocabulary in SQL; its SearchResponses must equal the embedded engine's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectSameResponses, indexPagesOnBoth, type PagesOnBoth } from "../../support/postgres/pages-bot.js";
import { postgresUnavailableReason } from "../../support/postgres/postgres-server.js";

const skipReason = postgresUnavailableReason();
if (skipReason) console.warn(`[skipped] PostgreSQL unseen-form tests: ${skipReason}`);

const COLLECTIONS = { help: { paths: ["docs/**/*.md"], language: "ru" } };

const PAGES = {
  "cells.md":
    "# Ячейка\n\nЯчейка таблицы хранит число или текст. Выделите ячейку и введите текст. Ячейка может содержать формулу.\n",
  "open.md": "# Открытие документа\n\nОткройте меню Файл и выберите документ в списке.\n",
  "print.md": "# Печать\n\nДокумент можно напечатать на принтере из меню Файл.\n",
  "save.md": "# Сохранение\n\nСохраните документ в формате ODF через меню Файл.\n",
  "formats.md": "# Форматы файлов\n\nФормат ODF открыт; формат DOCX тоже поддерживается.\n",
  "forms.md": "# Формы\n\nФорма служит для ввода данных.\n",
};

/** Forms no page writes ("ячейке", "открою", "формам"), one word no page begins like, one held as written. */
const QUERIES = [
  "ячейке",
  "как ввести текст в ячейке",
  "открою документ",
  "формам",
  "формат кубернетес",
  "печать",
];

describe.skipIf(skipReason !== undefined)(
  "a Russian collection's unseen word forms on PostgreSQL and embedded",
  () => {
    let both: PagesOnBoth;

    beforeAll(async () => {
      both = await indexPagesOnBoth("spravka", PAGES, COLLECTIONS);
    }, 120_000);

    afterAll(async () => both?.bot.stop());

    it("finds the page of a word's other forms on both backends", async () => {
      for (const search of [
        (q: string) => both.bot.backend.search({ query: q }),
        (q: string) => both.engine.search({ query: q }),
      ]) {
        const cells = await search("ячейке");
        expect(cells.results[0]?.id).toBe("docs/cells.md");
        expect(cells.retryHints?.unmatchedTerms ?? []).not.toContain("ячейке");
        expect((await search("открою документ")).results[0]?.id).toBe("docs/open.md");
        // "кубернетес" begins like no term: it stays unmatched on both.
        expect((await search("формат кубернетес")).retryHints?.unmatchedTerms).toContain("кубернетес");
      }
    });

    it("gives identical SearchResponses on both backends", async () => {
      await expectSameResponses(both, QUERIES);
    });
  },
);
