import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { indexDirectory } from "../../src/backends/embedded/open-embedded.js";
import { runBots } from "../../src/cli/bots.js";
import { IndexStore } from "../../src/knowledge/index/index-store.js";
import { refreshCollection } from "../../src/knowledge/index/refresh.js";

const MIXED = fileURLToPath(new URL("../fixtures/bots/mixed/", import.meta.url)).replace(/\/$/, "");

function io(env: NodeJS.ProcessEnv = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on("data", (c) => out.push(String(c)));
  stderr.on("data", (c) => err.push(String(c)));
  return { streams: { stdout, stderr, env }, out: () => out.join(""), err: () => err.join("") };
}

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), "second-look-run-bots-"));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe("runBots --json", () => {
  it("prints a stable array with loaded and failed bots", async () => {
    const t = io();
    expect(await runBots({ json: true, botsRoot: MIXED }, t.streams)).toBe(0);
    const list = JSON.parse(t.out());
    expect(list.map((e: { name: string }) => e.name)).toEqual(["handbook", "typo", "wiki"]);
    for (const entry of list) {
      expect(Object.keys(entry)).toEqual([
        "name",
        "dir",
        "backend",
        "collections",
        "languages",
        "model",
        "provider",
        "correctiveRetrieval",
        "error",
      ]);
    }
    expect(list[0]).toEqual({
      name: "handbook",
      dir: join(MIXED, "handbook"),
      backend: "embedded",
      collections: ["handbook"],
      languages: { handbook: { tags: ["en"], name: "English" } },
      model: null,
      provider: null,
      correctiveRetrieval: {
        enabled: true,
        grader: "signal",
        retryBudget: 1,
        source: { enabled: "bot", retryBudget: "bot", grader: "bot" },
      },
      error: null,
    });
    expect(list[1]).toMatchObject({
      name: "typo",
      backend: null,
      collections: [],
      model: null,
      provider: null,
      correctiveRetrieval: null,
      error: expect.stringContaining('did you mean "correctiveRetrieval"?'),
    });
    expect(list[2]).toMatchObject({
      name: "wiki",
      backend: "huginn",
      collections: ["wiki", "confluence"],
      model: "gpt-4.1-mini",
      provider: "openai",
      correctiveRetrieval: { enabled: false, source: { enabled: "bot", grader: "default" } },
    });
    expect(t.err()).toBe("");
  });

  it("reflects the env given to it", async () => {
    const t = io({ CORRECTIVE_RETRIEVAL_DISABLED: "1" });
    await runBots({ json: true, botsRoot: MIXED }, t.streams);
    const [handbook] = JSON.parse(t.out());
    expect(handbook.correctiveRetrieval).toMatchObject({
      enabled: false,
      source: { enabled: "kill-switch" },
    });
  });

  it("prints [] and exits 0 when there are no bots", async () => {
    const t = io();
    expect(await runBots({ json: true, botsRoot: join(tmp, "none") }, t.streams)).toBe(0);
    expect(JSON.parse(t.out())).toEqual([]);
  });

  it("exits 1 when every bot failed", async () => {
    mkdirSync(join(tmp, "broken"));
    writeFileSync(join(tmp, "broken", "config.json"), "{");
    const t = io();
    expect(await runBots({ json: true, botsRoot: tmp }, t.streams)).toBe(1);
    expect(JSON.parse(t.out())[0].error).toMatch(/invalid JSON at line 1, column 2/);
  });
});

describe("runBots (human)", () => {
  it("prints one aligned line per bot", async () => {
    const t = io();
    expect(await runBots({ json: false, botsRoot: MIXED }, t.streams)).toBe(0);
    const lines = t.out().trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      "handbook  embedded  handbook (English)  -                      correctiveRetrieval: on (grader=signal, budget=1)",
    );
    expect(lines[1]).toMatch(
      /^typo {6}error {5}.*config\.json: correctiveRetrival: unknown key; did you mean/,
    );
    expect(lines[2]).toBe(
      "wiki      huginn    wiki,confluence     gpt-4.1-mini (openai)  correctiveRetrieval: off (disabled in config: correctiveRetrieval.enabled is false)",
    );
  });

  it("says so when there are no bots", async () => {
    const t = io();
    expect(await runBots({ json: false, botsRoot: join(tmp, "none") }, t.streams)).toBe(0);
    expect(t.out()).toBe(
      `no bots under ${join(tmp, "none")} (a bot is a folder with a config.json; name its path to list it)\n`,
    );
  });

  it("reports an unusable bots folder on stderr and exits 1", async () => {
    writeFileSync(join(tmp, "file"), "x");
    const t = io();
    expect(await runBots({ json: false, botsRoot: join(tmp, "file") }, t.streams)).toBe(1);
    expect(t.err()).toMatch(/^second-look bots: ENOTDIR/);
    expect(t.out()).toBe("");
  });
});

describe("runBots: a collection with no language", () => {
  it("names the language its index was detected to be in, what decided it, and the key that changes it", async () => {
    const bot = join(tmp, "personal");
    mkdirSync(join(bot, "docs"), { recursive: true });
    const pages = [
      "Alle Mitarbeiter haben Anspruch auf fünf Wochen Urlaub im Jahr. Der Antrag geht an die Führungskraft.",
      "Reisekostenabrechnungen werden innerhalb eines Monats nach Reiseende mit den Belegen eingereicht.",
      "Die Verbindung zum Büronetz läuft über den VPN-Client, den Sie aus dem Portal installieren.",
    ];
    for (const [i, text] of pages.entries()) {
      writeFileSync(join(bot, "docs", `seite-${i}.md`), `# Seite ${i}\n\n${text}\n`);
    }
    writeFileSync(
      join(bot, "config.json"),
      JSON.stringify({
        knowledge: { backend: "embedded", collections: { docs: { paths: ["docs/**/*.md"] } } },
      }),
    );
    const before = io();
    await runBots({ json: false, botsRoot: tmp }, before.streams);
    // Not indexed yet: nothing detected, nothing claimed.
    expect(before.out()).not.toContain("detected");
    await refreshCollection(
      bot,
      { name: "docs", paths: ["docs/**/*.md"] },
      new IndexStore(indexDirectory(bot, {})),
    );
    const t = io();
    expect(await runBots({ json: false, botsRoot: tmp }, t.streams)).toBe(0);
    expect(t.out()).toContain("docs (German, detected)");
    expect(t.out()).toContain(
      "personal docs: language: de (German; detected from 3 of 3 documents; set knowledge.collections.docs.language to fix it)",
    );
    const json = io();
    await runBots({ json: true, botsRoot: tmp }, json.streams);
    expect(JSON.parse(json.out())[0].detectedLanguages).toEqual({
      docs: { tag: "de", documents: 3, sampled: 3 },
    });
  });
});
