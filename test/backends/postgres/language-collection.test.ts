// A German collection (`"language": "de"`) on both backends: the PostgreSQL backend analyses
// documents and queries with the collection's analyzer and reproduces the embedded engine's page
// evidence (src/knowledge/index/ranker.ts) by reading every section of the leading documents, so
// its SearchResponses equal the embedded engine's — including for a question whose answer is
// spread over several sections of one page.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KnowledgeEngine } from "../../../src/backends/embedded/embedded-engine.js";
import type { PostgresBackend } from "../../../src/backends/postgres/postgres-backend.js";
import { expectSameResponses, indexPagesOnBoth, type PagesOnBoth } from "../../support/postgres/pages-bot.js";
import { postgresUnavailableReason } from "../../support/postgres/postgres-server.js";

const skipReason = postgresUnavailableReason();
if (skipReason) console.warn(`[skipped] PostgreSQL language tests: ${skipReason}`);

const COLLECTIONS = { handbuch: { paths: ["docs/**/*.md"], language: "de" } };

const URLAUB = `# Urlaub

## Anspruch

Jede Mitarbeiterin und jeder Mitarbeiter hat Anspruch auf 30 Urlaubstage im Kalenderjahr.
Teilzeitkräfte erhalten die Tage anteilig nach ihren Arbeitstagen.

## Antrag

Urlaub wird im Personalportal beantragt, mindestens zwei Wochen vor dem ersten freien Tag.
Die Führungskraft genehmigt den Antrag innerhalb von drei Arbeitstagen.

## Resturlaub

Nicht genommene Tage können bis zum 31. März des Folgejahres übertragen werden.
Danach verfallen sie, außer bei Krankheit.
`;

const ELTERNZEIT = `# Elternzeit

## Antrag auf Elternzeit

Der Antrag auf Elternzeit muss spätestens sieben Wochen vor Beginn schriftlich bei der
Personalabteilung eingehen. Geben Sie an, für welche Zeiträume Sie Elternzeit nehmen.

## Teilzeit während der Elternzeit

Während der Elternzeit dürfen Sie bis zu 32 Wochenstunden in Teilzeit arbeiten.
`;

const REISEN = `# Dienstreisen

## Buchung

Flüge, Bahnfahrten und Hotels werden über das Reiseportal gebucht. Bahnfahrten haben Vorrang
vor Inlandsflügen.

## Reisekostenabrechnung

Die Reisekostenabrechnung wird innerhalb eines Monats nach der Rückkehr eingereicht.
Belege über 20 Euro sind beizufügen. Verpflegungsmehraufwand wird nach den steuerlichen
Pauschalen erstattet.
`;

const KRANKHEIT = `# Krankheit

Melden Sie sich am ersten Krankheitstag vor Arbeitsbeginn bei Ihrer Führungskraft.
Ab dem vierten Kalendertag ist eine ärztliche Arbeitsunfähigkeitsbescheinigung nötig.
Beantragte Urlaubstage, an denen Sie krank sind, werden Ihnen gutgeschrieben.
`;

/** Part-time work: each of the spread question's three words is in a different section. */
const TEILZEIT = `# Teilzeit

## Arbeitszeit

Teilzeit ist in jedem Umfang ab 15 Wochenstunden möglich. Die Verteilung auf die Wochentage
vereinbaren Sie mit Ihrer Führungskraft.

## Antrag

Teilzeit wird mindestens drei Monate vor dem gewünschten Beginn schriftlich beantragt.

## Urlaub in Teilzeit

Ihre Urlaubstage werden nach der Zahl Ihrer Arbeitstage pro Woche berechnet.

## Überstunden

Mehrarbeit über die vereinbarte Stundenzahl hinaus wird auf das Arbeitszeitkonto übertragen.
`;

/**
 * Queries worded otherwise than the pages ("Anträge" for "Antrag", "Dienstreisen abrechnen" for
 * "Reisekostenabrechnung"), one spread over three sections of the leave page, and one in no page.
 */
const SPREAD_QUERY = "beantragte Urlaubstage übertragen";
const QUERIES = [
  SPREAD_QUERY,
  "Anträge auf Elternzeit",
  "Belege der Reisekostenabrechnungen",
  "krank im Urlaub",
  "Aktienoptionen Sperrfrist",
];

describe.skipIf(skipReason !== undefined)("a German collection on PostgreSQL and embedded", () => {
  let both: PagesOnBoth;
  let backend: PostgresBackend;
  let engine: KnowledgeEngine;

  beforeAll(async () => {
    const pages = {
      "urlaub.md": URLAUB,
      "elternzeit.md": ELTERNZEIT,
      "reisen.md": REISEN,
      "krankheit.md": KRANKHEIT,
      "teilzeit.md": TEILZEIT,
    };
    both = await indexPagesOnBoth("handbuch", pages, COLLECTIONS);
    backend = both.bot.backend;
    engine = both.engine;
  }, 120_000);

  afterAll(async () => both?.bot.stop());

  it("gives identical SearchResponses on both backends", async () => {
    await expectSameResponses(both, QUERIES);
  });

  it("finds pages through German stems on both backends", async () => {
    for (const search of [
      (q: string) => backend.search({ query: q }),
      (q: string) => engine.search({ query: q }),
    ]) {
      expect((await search("Anträge auf Elternzeit")).results[0]?.id).toBe("docs/elternzeit.md");
      expect((await search("Belege der Reisekostenabrechnungen")).results[0]?.id).toBe("docs/reisen.md");
    }
  });

  it("ranks the page whose answer is spread over several sections first, alike on both backends", async () => {
    // The sick-leave page's one section holds two of the three words and leads the section
    // ranking; no section of the part-time page holds two, but the page holds all three, and the
    // page evidence puts it first. PostgreSQL must read the part-time page's other sections too.
    const sections = TEILZEIT.split(/^## /m).slice(1);
    const holding = ["beantragt", "Urlaubstage", "übertragen"].map((word) =>
      sections.findIndex((section) => section.includes(word)),
    );
    expect(new Set(holding).size).toBe(3);
    expect(holding).not.toContain(-1);
    expect(KRANKHEIT).toContain("Beantragte Urlaubstage");
    const embedded = await engine.search({ query: SPREAD_QUERY });
    const first = await engine.search({ query: SPREAD_QUERY, rerank: false });
    expect(embedded.results[0]?.id).toBe("docs/teilzeit.md");
    expect(first.results[0]?.id).toBe("docs/teilzeit.md");
    expect(embedded.results.map((hit) => hit.id)).toContain("docs/krankheit.md");
    expect(await backend.search({ query: SPREAD_QUERY })).toEqual(embedded);
  });
});
