// A collection without a `language` is analysed as English; when its documents read as another
// language, indexing says so once, naming the file, the key and the value to set.

import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { indexDirectory } from "../../../src/backends/embedded/open-embedded.js";
import { DETECTION_SAMPLE_CHARS, languageDetector } from "../../../src/knowledge/analysis/detect.js";
import {
  chooseCollectionLanguage,
  findUnsetLanguage,
  LanguageSample,
  UNSET_LANGUAGE_SAMPLE_DOCUMENTS,
  type UnsetLanguageFinding,
  unsetLanguageMessage,
} from "../../../src/knowledge/analysis/unset-language.js";
import { IndexStore } from "../../../src/knowledge/index/index-store.js";
import { refreshCollection } from "../../../src/knowledge/index/refresh.js";
import { logLines } from "../../support/capture-logs.js";

const NORWEGIAN = [
  "Alle ansatte har rett på fem uker ferie i året. Søknaden om ferie sendes til nærmeste leder før påske.",
  "Reiseregningen leveres innen en måned etter at reisen er avsluttet, sammen med kvitteringene.",
  "Du kobler deg til kontornettet gjennom VPN-klienten, som du installerer fra portalen.",
  "Sykefravær meldes til lederen din den første dagen, og egenmelding kan brukes i inntil tre dager.",
  "Møterommene bestilles i kalenderen; avbestill rommet hvis møtet blir flyttet eller avlyst.",
];
const ENGLISH = [
  "Every employee is entitled to five weeks of annual leave. Send the request to your manager before Easter.",
  "Travel expense claims are submitted within a month after the trip ends, together with the receipts.",
  "You connect to the office network through the VPN client, which you install from the portal.",
  "Report sick leave to your manager on the first day; self-certification covers up to three days.",
  "Meeting rooms are booked in the calendar; cancel the room if the meeting is moved or called off.",
];
const GERMAN = [
  "Alle Mitarbeiter haben Anspruch auf fünf Wochen Urlaub im Jahr. Der Antrag geht an die Führungskraft.",
  "Reisekostenabrechnungen werden innerhalb eines Monats nach Reiseende mit den Belegen eingereicht.",
  "Die Verbindung zum Büronetz läuft über den VPN-Client, den Sie aus dem Portal installieren.",
];

describe("findUnsetLanguage", () => {
  it("names the language most sampled documents read as, when it is not English", async () => {
    const found = findUnsetLanguage(NORWEGIAN, await languageDetector());
    expect(found).toEqual({ tag: "nb", name: "Norwegian Bokmål", documents: 5, english: 0, sampled: 5 });
  });

  it("has nothing to say of English documents, or of a sample where no other language holds a third", async () => {
    const detect = await languageDetector();
    expect(findUnsetLanguage(ENGLISH, detect)).toBeUndefined();
    // German holds 2 of 7: under a third, so no verdict.
    expect(findUnsetLanguage([...GERMAN.slice(0, 2), ...ENGLISH], detect)).toBeUndefined();
    expect(findUnsetLanguage([], detect)).toBeUndefined();
  });

  it("counts the English documents of a mixed collection, so the warning can suggest auto", async () => {
    const found = findUnsetLanguage([...GERMAN, ...ENGLISH.slice(0, 2)], await languageDetector());
    expect(found).toMatchObject({ tag: "de", documents: 3, english: 2, sampled: 5 });
  });
});

describe("chooseCollectionLanguage (what init writes)", () => {
  it("English, the other language, or auto when English holds a clear share too", async () => {
    const detect = await languageDetector();
    expect(chooseCollectionLanguage(ENGLISH, detect).language).toBe("en");
    expect(chooseCollectionLanguage(NORWEGIAN, detect).language).toBe("nb");
    expect(chooseCollectionLanguage([...GERMAN, ...ENGLISH.slice(0, 2)], detect).language).toBe("auto");
    expect(chooseCollectionLanguage([], detect)).toEqual({ language: "en", finding: undefined });
  });
});

describe("unsetLanguageMessage", () => {
  const messageFor = (found: Omit<UnsetLanguageFinding, "sampled">) =>
    unsetLanguageMessage("docs", "/bots/hr/config.json", { ...found, sampled: 40 });

  it("names the file, the key and the value to set", () => {
    const message = messageFor({ tag: "nb", name: "Norwegian Bokmål", documents: 38, english: 1 });
    expect(message).toBe(
      'collection docs has no "language" in /bots/hr/config.json, so it is analysed as English, but 38 of 40 sampled documents read as Norwegian Bokmål: set knowledge.collections.docs.language to "nb"; the collection is re-indexed once',
    );
  });

  it("offers auto too when a fifth or more of the sample is English", () => {
    const message = messageFor({ tag: "de", name: "German", documents: 24, english: 16 });
    expect(message).toContain("24 of 40 sampled documents read as German and 16 as English");
    expect(message).toContain(
      'set knowledge.collections.docs.language to "de", or to "auto" if people also ask in English (each document is then analysed in its own language)',
    );
  });
});

describe("LanguageSample", () => {
  const long = "ord ".repeat(DETECTION_SAMPLE_CHARS);
  const pages = Array.from({ length: UNSET_LANGUAGE_SAMPLE_DOCUMENTS + 30 }, (_, i) => ({
    path: `docs/side-${i}.md`,
    document: { title: `Side ${i}`, sections: [{ content: long }, { content: "never read" }] },
  }));

  it("keeps a bounded sample, the same whatever order the documents come in", () => {
    const forward = new LanguageSample();
    for (const { path, document } of pages) forward.offer(path, document);
    const backward = new LanguageSample();
    for (const { path, document } of [...pages].reverse()) backward.offer(path, document);
    expect(forward.texts).toHaveLength(UNSET_LANGUAGE_SAMPLE_DOCUMENTS);
    expect(backward.texts).toEqual(forward.texts);
    // Spread over the collection, not its first files.
    const kept = new Set(forward.texts.map((t) => Number(/^Side (\d+)/.exec(t)?.[1])));
    expect([...kept].some((i) => i >= UNSET_LANGUAGE_SAMPLE_DOCUMENTS)).toBe(true);
  });

  it("cuts each document to what the detector reads, and keeps none without letters", () => {
    const sample = new LanguageSample();
    sample.offer("docs/numbers.md", { title: "", sections: [{ content: "12 34 -- 56" }] });
    sample.offer(pages[0]!.path, pages[0]!.document);
    expect(sample.texts).toHaveLength(1);
    expect(sample.texts[0]!.startsWith("Side 0\nord ")).toBe(true);
    expect(sample.texts[0]).toHaveLength(DETECTION_SAMPLE_CHARS);
    expect(sample.texts[0]).not.toContain("never");
  });
});

let bot: string;
beforeEach(async () => {
  bot = await mkdtemp(join(tmpdir(), "second-look-unset-language-"));
  await mkdir(join(bot, "no"), { recursive: true });
  await mkdir(join(bot, "en"), { recursive: true });
  for (const [i, text] of NORWEGIAN.entries())
    await writeFile(join(bot, "no", `side-${i}.md`), `# Side ${i}\n\n${text}\n`);
  for (const [i, text] of ENGLISH.entries())
    await writeFile(join(bot, "en", `page-${i}.md`), `# Page ${i}\n\n${text}\n`);
});
afterEach(async () => rm(bot, { recursive: true, force: true }));

describe("indexing a collection that sets no language", () => {
  const warning =
    /has no \\"language\\" in [^"]*config\.json, so it is analysed as English, but 5 of 5 sampled documents read as Norwegian Bokmål: set knowledge\.collections\.docs\.language to \\"nb\\"/;

  it("warns once, when its files are read, if they read as another language", async () => {
    const store = new IndexStore(indexDirectory(bot));
    const source = { name: "docs", paths: ["no/**/*.md"] };
    const first = await logLines(() => refreshCollection(bot, source, store));
    expect(first.result.report.added).toBe(5);
    expect(first.log).toMatch(warning);
    expect(first.log).toContain(`"key":"knowledge.collections.docs.language"`);
    expect(first.log).toContain(JSON.stringify(join(bot, "config.json")).slice(1, -1));
    // Nothing read on the next run: nothing said.
    const again = await logLines(() => refreshCollection(bot, source, store));
    expect(again.result.report.unchanged).toBe(5);
    expect(again.log).not.toMatch(/has no \\"language\\"/);
  });

  it("says nothing when the language is set, or when the documents are English", async () => {
    const set = await logLines(() =>
      refreshCollection(
        bot,
        { name: "docs", paths: ["no/**/*.md"], language: "nb" },
        new IndexStore(indexDirectory(bot)),
      ),
    );
    expect(set.result.report.added).toBe(5);
    expect(set.log).not.toMatch(/has no \\"language\\"/);
    const english = await logLines(() =>
      refreshCollection(bot, { name: "english", paths: ["en/**/*.md"] }, new IndexStore(indexDirectory(bot))),
    );
    expect(english.result.report.added).toBe(5);
    expect(english.log).not.toMatch(/has no \\"language\\"/);
  });
});
