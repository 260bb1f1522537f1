// The stored index under abuse: killed mid-save, garbled, of the wrong shape, and large (past
// what one JSON string can hold).
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KnowledgeEngine } from "../../../src/backends/embedded/embedded-engine.js";
import { indexDirectory } from "../../../src/backends/embedded/open-embedded.js";
import { CollectionAnalysis } from "../../../src/knowledge/analysis/collection-analysis.js";
import { CollectionIndex } from "../../../src/knowledge/index/collection-index.js";
import { IndexStore } from "../../../src/knowledge/index/index-store.js";
import { refreshCollection } from "../../../src/knowledge/index/refresh.js";
import { logLines } from "../../support/capture-logs.js";
import { runCliProcess, startCli } from "../../support/cli-process.js";

/** The analysis id of a collection that names no language. */
const ENGLISH = CollectionAnalysis.of(undefined).id;

let bot: string;
const source = { name: "docs", paths: ["docs/**/*"] };

async function makeBot(files: number, bytesPerFile = 2_000): Promise<void> {
  await mkdir(join(bot, "docs"), { recursive: true });
  const words = [
    "policy",
    "leave",
    "expense",
    "travel",
    "laptop",
    "holiday",
    "salary",
    "review",
    "onboarding",
  ];
  for (let i = 0; i < files; i++) {
    let text = `# Document ${i}\n\nThis is document number ${i} about ${words[i % words.length]}.\n\n`;
    while (text.length < bytesPerFile) text += `${words[(text.length * 7 + i) % words.length]} `;
    await writeFile(join(bot, "docs", `doc-${i}.md`), text);
  }
  await writeFile(
    join(bot, "config.json"),
    JSON.stringify({
      description: "durability",
      knowledge: { backend: "embedded", collections: { docs: { paths: ["docs/**/*"] } } },
    }),
  );
}

beforeEach(async () => {
  bot = await mkdtemp(join(tmpdir(), "second-look-durable-"));
});
afterEach(async () => rm(bot, { recursive: true, force: true }));

async function indexFiles(): Promise<string[]> {
  return (await readdir(indexDirectory(bot))).sort();
}

describe("a damaged index", () => {
  it.each([
    ["a segment with flipped bytes", "segment", /fails its checksum/],
    ["a manifest of the wrong shape", '{"version":2,"documents":"many"}', /manifest has the wrong shape/],
    ["a manifest that is not JSON", "{garbled", /manifest is not JSON/],
    ["a manifest from another version", '{"version":1,"documents":[]}', /wrong shape/],
  ])("%s is rebuilt from the files with a warning", async (_name, damage, warning) => {
    await makeBot(12);
    const store = new IndexStore(indexDirectory(bot));
    await refreshCollection(bot, source, store);
    const files = await indexFiles();
    if (damage === "segment") {
      const segment = join(indexDirectory(bot), files.find((f) => f.endsWith(".seg"))!);
      const bytes = await readFile(segment);
      const middle = Math.floor(bytes.length / 2);
      bytes[middle] = bytes[middle]! ^ 0x20;
      await writeFile(segment, bytes);
    } else {
      await writeFile(join(indexDirectory(bot), "docs.manifest.json"), damage);
    }
    const { result, log } = await logLines(() => refreshCollection(bot, source, store));
    expect(log).toMatch(warning);
    expect(log).toMatch(/stored index of collection docs is damaged .*rebuilding it from the files/);
    expect(result.report).toMatchObject({ added: 12, written: true });
    expect((await store.load("docs", ENGLISH))?.length).toBe(12);
  });

  it("a text edited in place (size and time kept) is never served", async () => {
    await makeBot(3);
    const store = new IndexStore(indexDirectory(bot));
    await refreshCollection(bot, source, store);
    const segment = join(indexDirectory(bot), (await indexFiles()).find((f) => f.endsWith(".seg"))!);
    const text = await readFile(segment, "utf8");
    await writeFile(segment, text.replace("Document 1", "Document X"));
    expect(await store.inspect("docs", ENGLISH)).toMatchObject({ state: "damaged" });
  });

  it("the CLI rebuilds a wrong-shape index instead of failing on it", async () => {
    await makeBot(5);
    await mkdir(indexDirectory(bot), { recursive: true });
    await writeFile(
      join(indexDirectory(bot), "docs.manifest.json"),
      JSON.stringify({ version: 2, segments: {} }),
    );
    const run = await runCliProcess(["index", bot, "--json"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain("is damaged");
    expect(JSON.parse(run.stdout).collections[0]).toMatchObject({ added: 5, written: true });
  }, 60_000);
});

describe("a save interrupted at any point", () => {
  it("what a killed writer leaves behind is ignored on load and removed by the next save", async () => {
    await makeBot(4);
    const store = new IndexStore(indexDirectory(bot));
    await refreshCollection(bot, source, store);
    const before = await indexFiles();
    // A writer killed mid-save: its segments written, its manifest only as a temporary file.
    const dead = "999999-deadbeef";
    await writeFile(join(indexDirectory(bot), `docs.${dead}.0.seg`), "[half");
    await writeFile(join(indexDirectory(bot), `docs.manifest.json.${dead}.tmp`), '{"version":');
    expect((await store.load("docs", ENGLISH))?.length).toBe(4);
    await writeFile(join(bot, "docs", "doc-new.md"), "# New\n\nA new document.\n");
    await refreshCollection(bot, source, store);
    const after = await indexFiles();
    expect(after.some((f) => f.includes(dead))).toBe(false);
    expect(after.filter((f) => f.endsWith(".seg"))).toHaveLength(1);
    expect(after).not.toEqual(before);
    expect((await store.load("docs", ENGLISH))?.length).toBe(5);
  });

  it("kill -9 of `index` at any moment leaves an index the next run opens and completes", async () => {
    await makeBot(400);
    for (const delayMs of [400, 1_500, 3_000, 4_500]) {
      const { child, done } = startCli(["index", bot, "--json"]);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      child.kill("SIGKILL");
      await done;
      // Every interruption touches some files, so the next run has work (and a save) to be killed in.
      await writeFile(
        join(bot, "docs", `added-${delayMs}.md`),
        `# Added ${delayMs}\n\nAdded between kills.\n`,
      );
    }
    const run = await runCliProcess(["index", bot, "--json"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).not.toContain("is damaged");
    const report = JSON.parse(run.stdout).collections[0];
    expect(report.files).toBe(404);
    expect(report.skipped).toEqual([]);
    const files = await indexFiles();
    expect(files.filter((f) => f.endsWith(".tmp"))).toEqual([]);
    const search = await runCliProcess(["search", bot, "Added 3000", "--json"]);
    expect(JSON.parse(search.stdout).response.results[0].id).toBe("docs/added-3000.md");
  }, 120_000);
});

describe("a collection in several segments", () => {
  // The full-size case (26 × 9.9 MB, past V8's longest string) runs in bench/ingest.bench.ts.
  it("is written in bounded segments, each checked, and reloads and searches whole", async () => {
    await makeBot(40, 6_000);
    const store = new IndexStore(indexDirectory(bot), 32 * 1024);
    const first = await refreshCollection(bot, source, store);
    expect(first.report).toMatchObject({ added: 40, skipped: [], written: true });
    const manifest = JSON.parse(await readFile(join(indexDirectory(bot), "docs.manifest.json"), "utf8"));
    expect(manifest.segments.length).toBeGreaterThan(3);
    for (const segment of manifest.segments) expect(segment.bytes).toBeLessThan(32 * 1024 + 12_000);
    const reloaded = await store.load("docs", ENGLISH);
    expect(reloaded).toHaveLength(40);
    const engine = new KnowledgeEngine([new CollectionIndex("docs", reloaded!)]);
    const hit = await engine.search({ query: "document number 37", limit: 1 });
    expect(hit.results[0]?.id).toBe("docs/doc-37.md");
  });
});
