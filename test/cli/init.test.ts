// `second-look init`: a folder of documents becomes a bot that answers — config.json with its
// $schema and corrective retrieval on, persona.md, the documents' language, the index built,
// the next commands — and an existing bot is never overwritten unless asked.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type InitJson, pickSample, sampleQuery } from "../../src/cli/init.js";
import {
  LanguageSample,
  UNSET_LANGUAGE_SAMPLE_DOCUMENTS,
} from "../../src/knowledge/analysis/unset-language.js";
import { runCli } from "../support/run-cli.js";

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "second-look-init-"));
  process.env.SECOND_LOOK_LOG_LEVEL = "silent";
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  delete process.env.SECOND_LOOK_LOG_LEVEL;
});

let n = 0;
let work: string;
beforeEach(() => {
  work = join(root, `case-${++n}`);
  mkdirSync(work, { recursive: true });
});

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

/** One document per format, each with a phrase only it holds. */
function mixedDocuments(dir: string): Record<string, string> {
  write(join(dir, "keys.md"), "# Rotating keys\n\nThe signing key rotates every ninety days.\n");
  write(
    join(dir, "ops/backup.html"),
    "<html><head><title>Backups</title></head><body><h1>Backups</h1><p>Snapshots are kept for thirty days in the cold vault.</p></body></html>",
  );
  write(join(dir, "tides.txt"), "Tides\n\nQuarterly tide tables are printed in the harbour office.\n");
  return {
    "documents/keys.md": "signing key rotates",
    "documents/ops/backup.html": "snapshots cold vault",
    "documents/tides.txt": "tide tables harbour",
  };
}

async function initJson(...args: string[]): Promise<InitJson> {
  const run = await runCli(["init", ...args, "--json"]);
  expect(run.stderr).toBe("");
  expect(run.exitCode).toBe(0);
  return JSON.parse(run.stdout) as InitJson;
}

describe("second-look init", { timeout: 60_000 }, () => {
  it("copies documents from --from into the bot, writes a config with corrective retrieval on, indexes, and search finds every format", async () => {
    const docs = join(work, "team-docs");
    const phrases = mixedDocuments(docs);
    const bot = join(work, "kb");
    const json = await initJson(bot, "--from", docs);

    expect(json).toMatchObject({
      bot: "kb",
      collection: "team-docs",
      documents: "copied",
      files: 3,
      formats: { markdown: 1, html: 1, text: 1 },
      language: "en",
    });
    expect(json.collections[0]).toMatchObject({ collection: "team-docs", added: 3, skipped: [] });
    expect(json.next).toEqual([
      expect.stringMatching(/^npx second-look search \S+kb "[^"]+"$/),
      expect.stringMatching(/^npx second-look ask \S+kb "[^"]+"$/),
      expect.stringMatching(/^npx second-look mcp \S+kb$/),
    ]);
    const config = JSON.parse(readFileSync(join(bot, "config.json"), "utf8"));
    expect(config.$schema).toMatch(/config\.schema\.json$/);
    expect(existsSync(join(bot, config.$schema))).toBe(true);
    expect(config.correctiveRetrieval).toEqual({ enabled: true, grader: "signal", retryBudget: 1 });
    expect(config.knowledge.collections["team-docs"]).toEqual({
      paths: ["documents/**/*.{html,md,txt}"],
      language: "en",
    });
    expect(readFileSync(join(bot, "persona.md"), "utf8")).toContain("search_knowledge");
    expect(readFileSync(join(bot, "documents/ops/backup.html"), "utf8")).toContain("cold vault");

    for (const [id, phrase] of Object.entries(phrases)) {
      const search = await runCli(["search", bot, phrase, "--json"]);
      expect(search.exitCode, search.stderr).toBe(0);
      const found = JSON.parse(search.stdout) as { response: { results: { id: string }[] } };
      expect(found.response.results[0]?.id, phrase).toBe(id);
    }
  });

  it("with --url, writes where the documents are published, and search links each hit to its page at its section", async () => {
    const docs = join(work, "site");
    write(
      join(docs, "guide/keys.md"),
      "# Keys\n\n## Rotation {#rotate}\n\nThe signing key rotates every ninety days.\n",
    );
    write(
      join(docs, "ops/backup.html"),
      '<html><head><title>Backups</title></head><body><h1>Backups</h1><h2 id="vault">Vault</h2><p>Snapshots are kept for thirty days in the cold vault.</p></body></html>',
    );
    const bot = join(work, "kb");
    const template = "https://docs.example.com/{path}";
    const json = await initJson(bot, "--from", docs, "--url", template);
    expect(json.url).toBe(template);
    const config = JSON.parse(readFileSync(join(bot, "config.json"), "utf8"));
    expect(config.knowledge.collections.site).toEqual({
      paths: ["documents/**/*.{html,md}"],
      language: "en",
      url: template,
    });
    const linked = async (phrase: string) => {
      const search = await runCli(["search", bot, phrase, "--json"]);
      expect(search.exitCode, search.stderr).toBe(0);
      return (JSON.parse(search.stdout) as { response: { results: { url?: string }[] } }).response.results[0]
        ?.url;
    };
    expect(await linked("signing key rotates")).toBe("https://docs.example.com/guide/keys.md#rotate");
    expect(await linked("snapshots cold vault")).toBe("https://docs.example.com/ops/backup.html#vault");
    const printed = await runCli(["init", join(work, "kb2"), "--from", docs, "--url", template]);
    // Markdown is a site's source: how to make its links end as the published pages do.
    expect(printed.stdout).toContain(
      `links: ${template} (knowledge.collections.site.url); .md files link as they are named: if the site\n` +
        `  publishes them as .html, set knowledge.collections.site.url to {"template": "${template}", "extensions": {".md": ".html"}}\n`,
    );
    const pages = join(work, "pages");
    write(join(pages, "a.html"), "<html><body><h1>A</h1><p>Alpha page text.</p></body></html>");
    const html = await runCli(["init", join(work, "kb3"), "--from", pages, "--url", template]);
    expect(html.stdout).toContain(`links: ${template} (knowledge.collections.pages.url)\n`);
  });

  it("refuses a --url that is not an http(s) template with {path}, in one line, before it copies or writes anything", async () => {
    const docs = join(work, "site");
    write(join(docs, "faq.md"), "# FAQ\n\nThe canteen opens at noon.\n");
    for (const [template, problem] of [
      ["https://docs.example.com/", "must contain {path}"],
      ["file:///srv/docs/{path}", "must be an http:// or https:// address"],
    ] as const) {
      const run = await runCli(["init", join(work, "kb"), "--from", docs, "--url", template]);
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toMatch(
        new RegExp(`^second-look init: --url "${template.replace(/[/.]/g, "\\$&")}" ${problem}`),
      );
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(existsSync(join(work, "kb"))).toBe(false);
    }
  });

  it("reads text documents compressed with gzip, and says which files it did not read", async () => {
    const docs = join(work, "pkg-doc");
    mkdirSync(join(docs, "html"), { recursive: true });
    writeFileSync(
      join(docs, "html/upgrade.rst.gz"),
      gzipSync("Upgrading\n=========\n\nRaise the resolver's backtracking limit.\n"),
    );
    write(join(docs, "README.md"), "# Readme\n\nThe quarterly lighthouse inspection.\n");
    writeFileSync(join(docs, "changelog.Debian.gz"), gzipSync("pkg (1.0-1) unstable; urgency=low\n"));
    writeFileSync(join(docs, "html/logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    write(
      join(docs, "copyright"),
      "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n",
    );
    const bot = join(work, "kb");
    const json = await initJson(bot, "--from", docs);
    expect(json).toMatchObject({ files: 2, formats: { markdown: 1, rst: 1 } });
    expect(json.notRead).toEqual({ ".gz": 1, ".png": 1, "": 1 });
    expect(json.collections[0]).toMatchObject({ added: 2, skipped: [] });
    const config = JSON.parse(readFileSync(join(bot, "config.json"), "utf8"));
    expect(config.knowledge.collections["pkg-doc"].paths).toEqual(["documents/**/*.{md,rst.gz}"]);
    const search = await runCli(["search", bot, "resolver backtracking limit", "--json"]);
    const found = JSON.parse(search.stdout) as { response: { results: { id: string }[] } };
    expect(found.response.results[0]?.id).toBe("documents/html/upgrade.rst.gz");

    const person = await runCli(["init", join(work, "kb2"), "--from", docs]);
    expect(person.stdout.split("\n")).toContain(
      "not read: 3 files of types no loader reads (1 .gz, 1 .png, 1 without an extension)",
    );
  });

  it("without --from reads the documents where they are, inside the bot folder", async () => {
    const bot = join(work, "handbook");
    write(join(bot, "guide/leave.md"), "# Leave\n\nYou get twenty-five days of annual leave.\n");
    const json = await initJson(bot);
    expect(json.documents).toBe("referenced");
    expect(existsSync(join(bot, "documents"))).toBe(false);
    const config = JSON.parse(readFileSync(join(bot, "config.json"), "utf8"));
    expect(config.knowledge.collections.handbook).toMatchObject({
      paths: ["**/*.md"],
      exclude: ["persona.md"],
    });
    expect(json.collections[0]).toMatchObject({ added: 1 });
  });

  it("with the bot folder inside --from, copies the documents but not the bot's own files", async () => {
    const docs = join(work, "docs");
    write(join(docs, "faq.md"), "# FAQ\n\nThe canteen opens at noon.\n");
    write(join(docs, "kb/notes.md"), "# Left over\n\nA file in the bot folder before init.\n");
    const json = await initJson(join(docs, "kb"), "--from", docs);
    expect(json.files).toBe(1);
    expect(existsSync(join(docs, "kb/documents/faq.md"))).toBe(true);
    expect(existsSync(join(docs, "kb/documents/kb"))).toBe(false);
  });

  it("a bot folder reached through a symlink reads documents inside its real folder where they are", async () => {
    const release = join(work, "releases/bot");
    write(join(release, "docs/leave.md"), "# Leave\n\nYou get twenty-five days of annual leave.\n");
    symlinkSync(release, join(work, "current"));
    const json = await initJson(join(work, "current"), "--from", join(release, "docs"));
    expect(json.documents).toBe("referenced");
    expect(existsSync(join(release, "documents"))).toBe(false);
    const config = JSON.parse(readFileSync(join(release, "config.json"), "utf8"));
    expect(config.knowledge.collections.docs.paths).toEqual(["docs/**/*.md"]);
    expect(json.collections[0]).toMatchObject({ added: 1 });
  });

  it("copies documents from a folder in the bot folder that is a symlink out of it", async () => {
    const bot = join(work, "kb");
    write(join(work, "shared/faq.md"), "# FAQ\n\nThe canteen opens at noon.\n");
    mkdirSync(bot);
    symlinkSync(join(work, "shared"), join(bot, "shared"));
    const json = await initJson(bot, "--from", join(bot, "shared"));
    expect(json.documents).toBe("copied");
    expect(existsSync(join(bot, "documents/faq.md"))).toBe(true);
    expect(json.collections[0]).toMatchObject({ added: 1 });
  });

  it("detects the documents' language and writes it into the collection", async () => {
    const docs = join(work, "handbuch");
    const german = [
      "Der Urlaubsanspruch beträgt dreißig Arbeitstage im Kalenderjahr. Nicht genommene Tage verfallen am Ende des ersten Quartals des Folgejahres, sofern die Abteilungsleitung keine Ausnahme genehmigt hat.",
      "Reisekosten werden nach der Rückkehr innerhalb von vier Wochen abgerechnet. Belege müssen im Original eingereicht werden, und die Erstattung erfolgt mit der nächsten Gehaltsabrechnung.",
      "Das Passwort für das Firmenkonto muss mindestens sechzehn Zeichen lang sein und wird alle neunzig Tage geändert. Die Zwei-Faktor-Anmeldung ist für alle Mitarbeiter verpflichtend.",
    ];
    german.forEach((text, i) => {
      write(join(docs, `seite-${i}.md`), `# Seite ${i}\n\n${text}\n`);
    });
    const json = await initJson(join(work, "bot"), "--from", docs);
    expect(json.language).toBe("de");
    const config = JSON.parse(readFileSync(join(work, "bot/config.json"), "utf8"));
    expect(config.knowledge.collections.handbuch.language).toBe("de");
  });

  it("refuses to overwrite an existing bot with one line and exit 1; --force replaces its config", async () => {
    const bot = join(work, "kept");
    write(join(bot, "notes.md"), "# Notes\n\nThe office opens at nine.\n");
    write(join(bot, "config.json"), '{"knowledge":{"collections":{"x":{"paths":["*.md"]}}}}');
    const refused = await runCli(["init", bot]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toBe(
      `second-look init: ${join(bot, "config.json")} already exists: init does not overwrite a bot (--force replaces its config.json and persona.md)\n`,
    );
    expect(readFileSync(join(bot, "config.json"), "utf8")).toBe(
      '{"knowledge":{"collections":{"x":{"paths":["*.md"]}}}}',
    );

    const forced = await initJson(bot, "--force");
    expect(forced.collection).toBe("kept");
    expect(JSON.parse(readFileSync(join(bot, "config.json"), "utf8")).correctiveRetrieval.enabled).toBe(true);
  });

  it("says so in one line when there are no documents, or --from is not a folder", async () => {
    const empty = join(work, "empty");
    write(join(empty, "picture.png"), "not a document");
    const none = await runCli(["init", join(work, "bot"), "--from", empty]);
    expect(none.exitCode).toBe(1);
    expect(none.stderr).toMatch(
      /^second-look init: no documents in \S+empty: init reads \.md, .*\.pdf.* files/,
    );
    expect(none.stderr.trim().split("\n")).toHaveLength(1);
    expect(none.stderr).toContain("; it holds 1 file of types no loader reads (1 .png)\n");
    expect(existsSync(join(work, "bot/config.json"))).toBe(false);

    const legacy = join(work, "legacy");
    write(join(legacy, "minutes.doc"), "old Word");
    write(join(legacy, "budget.XLS"), "old Excel");
    write(join(legacy, "plan.doc"), "old Word");
    const old = await runCli(["init", join(work, "bot"), "--from", legacy]);
    expect(old.exitCode).toBe(1);
    expect(old.stderr).toContain(
      "; it holds 3 files of types no loader reads (2 .doc, 1 .xls; save .doc as .docx, .xls as .xlsx to have them read)\n",
    );

    const missing = await runCli(["init", join(work, "bot"), "--from", join(work, "nowhere")]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toBe(
      `second-look init: --from ${join(work, "nowhere")} is not a folder of documents\n`,
    );
  });

  it("prints what it did and the next three commands for a person", async () => {
    const docs = join(work, "notes");
    mixedDocuments(docs);
    const run = await runCli(["init", join(work, "kb"), "--from", docs]);
    expect(run.exitCode, run.stderr).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines).toContain("correctiveRetrieval: on (grader=signal, budget=1)");
    expect(lines).toContain("language: en (the sampled documents read as English)");
    expect(lines.find((l) => l.startsWith("notes: 3 documents"))).toContain("copied from");
    expect(lines.slice(-4)).toEqual([
      "next:",
      expect.stringMatching(/^ {2}npx second-look search /),
      expect.stringMatching(/^ {2}npx second-look ask /),
      expect.stringMatching(/^ {2}npx second-look mcp /),
    ]);
    // The bot folder lies outside the working folder: named as the user named it, not as ../../…
    expect(relative(process.cwd(), work).startsWith("..")).toBe(true);
    expect(lines.at(-1)).toBe(`  npx second-look mcp ${join(work, "kb")}`);
  });
});

describe("init's language sample", () => {
  it("is the documents the unset-language warning samples: those whose ids rank lowest", () => {
    const files = Array.from({ length: 100 }, (_, i) => ({
      absPath: `/bot/docs/${i}.md`,
      id: `docs/${i}.md`,
    }));
    const picked = pickSample(files);
    expect(picked).toHaveLength(UNSET_LANGUAGE_SAMPLE_DOCUMENTS);
    const sample = new LanguageSample();
    const words = "enough words on the page for the detector to judge its language";
    for (const file of files) sample.offer(file.id, { title: file.id, sections: [{ content: words }] });
    expect(picked.map((file) => file.id)).toEqual(sample.texts.map((text) => text.split("\n")[0]));
    expect(pickSample(files.slice(0, 3))).toHaveLength(3);
  });
});

describe("init's query to try", () => {
  it("is the title that reads most like a topic: no section number, no shouted file name, near four words", () => {
    const titles = [
      "1. AUTHORS",
      "NEWS",
      "4.3. Memcheck Command-Line Options",
      "Valgrind Frequently Asked Questions",
    ];
    expect(sampleQuery(titles)).toBe("Valgrind Frequently Asked Questions");
    expect(sampleQuery(["II. Getting Started", "Index"])).toBe("Getting Started");
  });

  it("keeps a number that is part of a word, and never strips a word's first letter", () => {
    expect(sampleQuery(["3D graphics"])).toBe("3D graphics");
    expect(sampleQuery(["Introduction to the tools"])).toBe("Introduction to the tools");
  });

  it("falls back to any plain title, then to a placeholder; never a title a shell would misread", () => {
    expect(sampleQuery(["README"])).toBe("README");
    expect(sampleQuery(['say "hi" $(rm -rf ~)', "`x`"])).toBe("your question");
    expect(sampleQuery([])).toBe("your question");
  });
});
