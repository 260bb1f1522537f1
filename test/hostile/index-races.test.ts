// Issue 24, L2 and L3: the embedded index under concurrent use. A load that runs while a save
// replaces the manifest and removes the segments it named must not call the index damaged
// (which triggers a full rebuild); and a segment a concurrent run left behind must be removed by
// a later run even when that run has nothing to save.
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CollectionAnalysis } from "../../src/knowledge/analysis/collection-analysis.js";
import { IndexStore } from "../../src/knowledge/index/index-store.js";
import { refreshCollection } from "../../src/knowledge/index/refresh.js";
import type { StoredDocument } from "../../src/knowledge/index/stored-document.js";

/** The analysis id of a collection that names no language. */
const ENGLISH = CollectionAnalysis.of(undefined).id;

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "second-look-index-races-"));
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

function documents(generation: number, count: number): StoredDocument[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `docs/${i}.md`,
    path: `docs/${i}.md`,
    title: `Document ${i} of generation ${generation}`,
    size: 100 + i,
    mtimeMs: generation,
    contentHash: `${generation}-${i}`,
    sections: [
      {
        headingPath: [],
        content: `generation ${generation} text ${"x".repeat(400)}`,
        titleTerms: "document",
        bodyTerms: "generation text",
      },
    ],
  }));
}

describe("loading while another save replaces the index (L3)", () => {
  it("80 loads during back-to-back saves: every one loaded, none damaged", async () => {
    // Small segments: each load reads many files, one after another, so saves land mid-load.
    const store = new IndexStore(join(root, "l3"), 2_048);
    await store.save("docs", documents(0, 60), [], ENGLISH);
    let saving = true;
    const saves = (async () => {
      for (let generation = 1; saving && generation < 10_000; generation++) {
        await store.save("docs", documents(generation, 60), [], ENGLISH);
      }
    })();
    const states: string[] = [];
    const reasons: string[] = [];
    try {
      for (let i = 0; i < 80; i++) {
        const found = await store.inspect("docs", ENGLISH);
        states.push(found.state);
        if (found.state === "damaged") reasons.push(found.reason);
      }
    } finally {
      saving = false;
      await saves;
    }
    expect(reasons).toEqual([]);
    expect(states.every((state) => state === "loaded")).toBe(true);
  }, 60_000);
});

describe("a segment a concurrent run left behind (L2)", () => {
  it("is removed by the next refresh although it has nothing to save", async () => {
    const bot = join(root, "l2");
    await mkdir(join(bot, "docs"), { recursive: true });
    await writeFile(join(bot, "docs", "a.md"), "# A\n\nAlpha text.\n");
    const store = new IndexStore(join(bot, ".second-look", "index"));
    const source = { name: "docs", paths: ["docs/**/*.md"] };
    const first = await refreshCollection(bot, source, store);
    expect(first.report.written).toBe(true);
    // What the run that lost the race leaves: its segment, named by a process now gone.
    const deadPid = spawnSync(process.execPath, ["-e", ""]).pid;
    const orphan = `docs.${deadPid}-0badf00d.0.seg`;
    await writeFile(join(store.directory, orphan), "[]");
    const second = await refreshCollection(bot, source, store);
    expect(second.report).toMatchObject({ written: false, unchanged: 1 });
    expect(await readdir(store.directory)).not.toContain(orphan);
    expect((await store.inspect("docs", ENGLISH)).state).toBe("loaded");
  }, 60_000);
});
