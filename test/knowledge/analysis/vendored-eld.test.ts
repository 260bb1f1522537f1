// The copy of eld's detector the language detector prefers (scripts/vendor-eld.mjs: eld/small with
// its n-gram table one sorted string looked up in place) detects exactly as the package as published: the same
// language, reliability and every score, for sentences in each language the product analyses and
// for the texts a detector gets wrong or cannot judge.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
mkdirSync(join(ROOT, ".scratch"), { recursive: true });
const target = mkdtempSync(join(ROOT, ".scratch", "vendored-eld-"));
execFileSync(process.execPath, [join(ROOT, "scripts/vendor-eld.mjs"), target]);
afterAll(() => rmSync(target, { recursive: true, force: true }));

type Eld = typeof import("eld/small");

const TEXTS = [
  "How do I insert page numbers in the footer of every page?",
  "Wie füge ich Seitenzahlen in die Fußzeile jeder Seite ein?",
  "Comment insérer des numéros de page dans le pied de page ?",
  "¿Cómo inserto números de página en el pie de página?",
  "Como insiro números de página no rodapé de cada página?",
  "Come inserisco i numeri di pagina nel piè di pagina?",
  "Hoe voeg ik paginanummers toe aan de voettekst?",
  "Hur infogar jag sidnummer i sidfoten på varje sida?",
  "Hvordan indsætter jeg sidetal i sidefoden på hver side?",
  "Hvordan setter jeg inn sidetall i bunnteksten på hver side?",
  "Miten lisään sivunumerot alatunnisteeseen jokaiselle sivulle?",
  "Jak wstawić numery stron w stopce każdej strony?",
  "Jak vložím čísla stránek do zápatí každé stránky?",
  "Hogyan szúrhatok be oldalszámot minden oldal láblécébe?",
  "Her sayfanın altbilgisine sayfa numarası nasıl eklenir?",
  "Cum inserez numere de pagină în subsolul fiecărei pagini?",
  "Com inserisc números de pàgina al peu de cada pàgina?",
  "Как вставить номера страниц в нижний колонтитул каждой страницы?",
  "Як вставити номери сторінок у нижній колонтитул кожної сторінки?",
  "كيف أدرج أرقام الصفحات في تذييل كل صفحة؟",
  "フッターにページ番号を挿入する方法",
  "如何在每一页的页脚中插入页码？",
  "모든 페이지의 바닥글에 페이지 번호를 삽입하는 방법",
  "จะใส่หมายเลขหน้าในส่วนท้ายของทุกหน้าได้อย่างไร",
  "SmartArt 組織図 writer",
  "pip install --upgrade",
  "12345 -- ?!",
  "",
];

/** What a detector says of a text, every field the product reads. */
function reading(eld: Eld["eld"], text: string) {
  const result = eld.detect(text);
  return { language: result.language, reliable: result.isReliable(), scores: result.getScores() };
}

describe("the vendored eld", () => {
  it("is written, with the package's license and version", () => {
    expect(existsSync(join(target, "eld-small.cjs"))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(target, "package.json"), "utf8")) as { version: string };
    const published = JSON.parse(readFileSync(join(ROOT, "node_modules/eld/package.json"), "utf8")) as {
      version: string;
    };
    expect(manifest.version).toBe(published.version);
    expect(readFileSync(join(target, "LICENSE"), "utf8")).toBe(
      readFileSync(join(ROOT, "node_modules/eld/LICENSE"), "utf8"),
    );
    // The table is one sorted string looked up in place, not an object built from a literal.
    expect(readFileSync(join(target, "eld-small.cjs"), "utf8")).toContain("sortedTable(");
  });

  it("detects every text exactly as the package as published", async () => {
    const vendored = (createRequire(import.meta.url)(join(target, "eld-small.cjs")) as Eld).eld;
    const { eld } = await import("eld/small");
    for (const text of TEXTS) expect(reading(vendored, text), text).toEqual(reading(eld, text));
    // The sentences are told apart at all (a copy that detected nothing would equal nothing above).
    expect(new Set(TEXTS.map((t) => reading(vendored, t).language)).size).toBeGreaterThan(20);
  });
});
