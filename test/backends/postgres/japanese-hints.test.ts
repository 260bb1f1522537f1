// A Japanese collection (`"language": "ja"`) on both backends: a weak search's retry hints come
// from the relevance model of its leading sections (src/knowledge/index/feedback.ts), whose terms
// often tie (a dictionary word and its character bigrams, two words once each in one section).
// The PostgreSQL backend ranks over the candidate sections it read, whose term ids are not the
// whole collection's, so a tie broken by term id named the hints in another order than the
// embedded engine (lohelp ja, question lo039: bench/results/postgres.md). Ties break by the term.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KnowledgeEngine } from "../../../src/backends/embedded/embedded-engine.js";
import type { PostgresBackend } from "../../../src/backends/postgres/postgres-backend.js";
import { indexPagesOnBoth, type PagesOnBoth } from "../../support/postgres/pages-bot.js";
import { postgresUnavailableReason } from "../../support/postgres/postgres-server.js";

const skipReason = postgresUnavailableReason();
if (skipReason) console.warn(`[skipped] PostgreSQL Japanese hints tests: ${skipReason}`);

const COLLECTIONS = { docs: { paths: ["docs/**/*.md"], language: "ja" } };

/**
 * Path order is index order. "zebra" is first met in the first page, which holds no query word
 * (without the feedback pass, whose expanded query holds "zebra", PostgreSQL never reads it);
 * "gadget" first in the answering page, before "zebra". Each is in two pages and once in the
 * answering one, so the relevance model weighs them exactly alike.
 */
const PAGES = {
  "a-kaisha.md": "# 会社概要\n\n当社は zebra という名前の倉庫を運営しています。\n",
  "b-dropdown.md": "# ドロップダウン\n\nドロップダウンの gadget と zebra を表示します。\n",
  "c-shain.md": "# 社員旅行\n\n社員旅行では gadget を配ります。\n",
};
const QUERY = "入力規則の選択肢リストをセルに表示するには？";

describe.skipIf(skipReason !== undefined)(
  "a Japanese collection's retry hints on PostgreSQL and embedded",
  () => {
    let both: PagesOnBoth;
    let backend: PostgresBackend;
    let engine: KnowledgeEngine;

    beforeAll(async () => {
      both = await indexPagesOnBoth("ja-hints", PAGES, COLLECTIONS);
      backend = both.bot.backend;
      engine = both.engine;
    }, 120_000);

    afterAll(async () => both?.bot.stop());

    it("offers the same related terms, tied ones in the same order, on both backends", async () => {
      const request = { query: QUERY, rerank: false };
      const embedded = await engine.search(request);
      const related = embedded.retryHints?.relatedTerms ?? [];
      // The two tied words are both offered, in the order of the words themselves.
      expect(related.filter((term) => term === "gadget" || term === "zebra")).toEqual(["gadget", "zebra"]);
      const postgres = await backend.search(request);
      expect(postgres.retryHints).toEqual(embedded.retryHints);
      expect(postgres).toEqual(embedded);
    });

    it("gives identical SearchResponses with the feedback pass and in brief mode", async () => {
      for (const request of [{ query: QUERY }, { query: QUERY, brief: true, limit: 2 }]) {
        const embedded = await engine.search(request);
        expect(embedded.retryHints?.relatedTerms).toContain("gadget");
        expect(await backend.search(request)).toEqual(embedded);
      }
    });
  },
);
