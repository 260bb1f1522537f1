import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openEmbeddedEngine } from "../../../src/backends/embedded/open-embedded.js";
import { createLogger, logger, setLogger } from "../../../src/telemetry/logger.js";

let bot: string;
let log: string;
let previousLogger: ReturnType<typeof logger>;
beforeEach(async () => {
  bot = await mkdtemp(join(tmpdir(), "second-look-background-"));
  await mkdir(join(bot, "docs"), { recursive: true });
  await writeFile(join(bot, "docs", "pto.md"), "# Vacation\n\nYou get 25 vacation days.\n");
  log = "";
  previousLogger = logger();
  const sink = new Writable({
    write(chunk, _encoding, done) {
      log += String(chunk);
      done();
    },
  });
  setLogger(createLogger({ destination: sink }));
});
afterEach(async () => {
  setLogger(previousLogger);
  await rm(bot, { recursive: true, force: true });
});

const collections = { handbook: { paths: ["docs/**/*.md"] } };
const ids = (engine: { searchSync(r: { query: string }): { results: { id: string }[] } }, query: string) =>
  engine.searchSync({ query }).results.map((h) => h.id);

/** Forty new files, each naming a word of its own: far more than a 1 ms budget can parse. */
async function addFiles() {
  for (let i = 0; i < 40; i++) {
    await writeFile(join(bot, "docs", `new-${i}.md`), `# Policy ${i}\n\nThe zeppelin${i} rule applies.\n`);
  }
}

describe("a refresh stopped by its budget", () => {
  it("finishes in the background when asked, answering from the old index until it is done", async () => {
    await openEmbeddedEngine(bot, collections);
    await addFiles();
    const opened = await openEmbeddedEngine(bot, collections, {
      refreshBudgetMs: 1,
      finishRefreshInBackground: true,
    });
    expect(opened.reports[0]!.pending).toBeGreaterThan(0);
    expect(opened.background).toBeDefined();
    // Answers right away, from the index as it stood.
    expect(ids(opened.engine, "vacation days")).toContain("docs/pto.md");
    expect(log).toMatch(
      /changed files not yet read; answering from the index as it stands .* while the refresh finishes in the background/,
    );

    const finished = await opened.background!.done;
    expect(finished[0]).toMatchObject({ collection: "handbook", pending: 0, written: true });
    expect(finished[0]!.added + opened.reports[0]!.added).toBe(40);
    expect(ids(opened.engine, "zeppelin39 rule")[0]).toBe("docs/new-39.md");
    expect(ids(opened.engine, "vacation days")).toContain("docs/pto.md");
    expect(log).toMatch(/background index refresh of collection handbook finished .*answers now use it/);
    // Saved: the next start has nothing left to read.
    const next = await openEmbeddedEngine(bot, collections);
    expect(next.reports[0]).toMatchObject({ pending: 0, added: 0, unchanged: 41 });
  }, 120_000);

  it("without it, says to run `second-look index`, and a stop of the background keeps what is done", async () => {
    await openEmbeddedEngine(bot, collections);
    await addFiles();
    const plain = await openEmbeddedEngine(bot, collections, { refreshBudgetMs: 1 });
    expect(plain.background).toBeUndefined();
    expect(log).toContain("Run `second-look index` on this bot to finish it.");

    const opened = await openEmbeddedEngine(bot, collections, {
      refreshBudgetMs: 1,
      finishRefreshInBackground: true,
    });
    const stopped = await opened.background!.stop();
    const again = await openEmbeddedEngine(bot, collections);
    // Everything is read in the end; nothing the stopped refresh saved is read twice.
    expect(
      again.reports[0]!.added + (stopped[0]?.added ?? 0) + plain.reports[0]!.added + opened.reports[0]!.added,
    ).toBe(40);
    expect(ids(again.engine, "zeppelin7 rule")[0]).toBe("docs/new-7.md");
  }, 120_000);
});
