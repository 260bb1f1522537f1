import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseText } from "../../../src/knowledge/documents/text-loader.js";

describe("parseText", () => {
  it("takes a short first line as the title and keeps it out of the content", () => {
    const source = readFileSync(
      fileURLToPath(new URL("../../fixtures/documents/notes.txt", import.meta.url)),
      "utf8",
    );
    const doc = parseText(source, "notes");
    expect(doc.title).toBe("Onboarding notes");
    expect(doc.sections).toEqual([
      {
        headingPath: ["Onboarding notes"],
        level: 0,
        content:
          "Welcome to Acme. Your first week starts on Monday at 09:00.\n\nBring your ID and bank details.\nYour laptop will be ready at the IT desk.",
      },
    ]);
  });

  it("uses the file name when the first line is long prose", () => {
    const line =
      "This first line is a long sentence of prose that goes on well past any reasonable title length.";
    const doc = parseText(`${line}\n\nSecond.`, "memo");
    expect(doc.title).toBe("memo");
    expect(doc.sections[0]?.content).toBe(`${line}\n\nSecond.`);
  });

  it("groups paragraphs into sections by size without losing or reordering any", () => {
    const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} ${"word ".repeat(30).trim()}.`);
    const doc = parseText(`Title\n\n${paragraphs.join("\n\n")}`, "f");
    expect(doc.sections.length).toBeGreaterThan(1);
    for (const s of doc.sections) expect(s.content.length).toBeLessThanOrEqual(1000);
    expect(doc.sections.map((s) => s.content).join("\n\n")).toBe(paragraphs.join("\n\n"));
  });

  it("keeps a one-line note as its own content, so a search can find it", () => {
    const doc = parseText("Door code for the lab is 4711\n", "lab");
    expect(doc.title).toBe("Door code for the lab is 4711");
    expect(doc.sections).toEqual([
      { headingPath: ["Door code for the lab is 4711"], level: 0, content: "Door code for the lab is 4711" },
    ]);
  });

  it("returns no sections for empty or blank text", () => {
    expect(parseText("", "empty")).toEqual({ title: "empty", sections: [] });
    expect(parseText(" \n\n  \n", "blank").sections).toEqual([]);
  });
});

describe("parseText on a manual page saved as text", () => {
  it("takes the NAME line as the title and drops the running header and footer", () => {
    const page = [
      "PASSWD(1)                 Dienstprogramme für Benutzer                PASSWD(1)",
      "",
      "BEZEICHNUNG",
      "       passwd - ändert das Passwort eines Benutzers",
      "",
      "ÜBERSICHT",
      "       passwd [Optionen] [BENUTZERNAME]",
      "",
      "shadow-utils 4.13                 22.03.2023                          PASSWD(1)",
    ].join("\n");
    const doc = parseText(page, "passwd.1");
    expect(doc.title).toBe("passwd - ändert das Passwort eines Benutzers");
    expect(doc.sections.map((s) => s.content)).toEqual([
      "BEZEICHNUNG\n       passwd - ändert das Passwort eines Benutzers\n\nÜBERSICHT\n       passwd [Optionen] [BENUTZERNAME]",
    ]);
  });

  it("a first line naming a page only once is an ordinary title", () => {
    expect(parseText("LS(1) in practice\n\nbody", "f").title).toBe("LS(1) in practice");
  });

  it("a first line of 100,000 spaces between a page name and a word is parsed at once, as prose", () => {
    const doc = parseText(`A(1)${" ".repeat(100_000)}B  \n\nbody`, "notes");
    expect(doc.title).toBe("notes");
    expect(doc.sections.map((s) => s.content)).toEqual([`A(1)${" ".repeat(100_000)}B`, "body"]);
  });
});
