// What a cold `second-look search` loads (issue 33, "no waiting"): only what its answer needs.
// With corrective retrieval off, no module of the corrective pass; with it on and a search the
// signal grades good, the pass but not the tools' argument schemas; and in both, no logger
// (pino) when nothing is logged. The process names each module it loads (module-loads.mjs).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliProcess } from "../support/cli-process.js";

const LOADS = fileURLToPath(new URL("../support/module-loads.mjs", import.meta.url));
const PAGES = {
  "ferries.md": "# Ferries\n\nThe ferry timetable lists every crossing from the harbour pier.\n",
  "buses.md": "# Buses\n\nThe night bus leaves the station every hour.\n",
  "trains.md": "# Trains\n\nRegional trains stop at the harbour twice a day.\n",
};

let root: string;

async function bot(name: string, extra: object): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, "docs"), { recursive: true });
  await writeFile(
    join(dir, "config.json"),
    JSON.stringify({
      knowledge: { collections: { docs: { paths: ["docs/*.md"], language: "en" } } },
      ...extra,
    }),
  );
  for (const [file, text] of Object.entries(PAGES)) await writeFile(join(dir, "docs", file), text);
  const indexed = await runCliProcess(["index", dir]);
  expect(indexed.exitCode, indexed.stderr).toBe(0);
  return dir;
}

/** A cold search's result and what its process loaded. */
async function coldSearch(dir: string, query: string) {
  const run = await runCliProcess(["search", dir, query, "--json"], {
    NODE_OPTIONS: `--import ${LOADS}`,
    SECOND_LOOK_LOG_LEVEL: "",
  });
  expect(run.exitCode, run.stderr).toBe(0);
  const lines = run.stderr.split("\n");
  const loaded = lines.filter((l) => l.startsWith("loaded ")).map((l) => l.slice("loaded ".length));
  const required = lines.filter((l) => l.startsWith("required ")).map((l) => l.slice("required ".length));
  return { result: JSON.parse(run.stdout) as { outcome: unknown; final: string }, loaded, required };
}

const ofSource = (loaded: string[], path: string) => loaded.some((url) => url.includes(`/src/${path}.`));

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "second-look-search-loads-"));
});
afterAll(async () => rm(root, { recursive: true, force: true }));

describe("a cold search loads what its answer needs", () => {
  it("with corrective retrieval off: no corrective pass, no argument schemas, no logger", async () => {
    const { result, loaded, required } = await coldSearch(await bot("off", {}), "ferry timetable");
    expect(result.final).toContain("ferries.md");
    // The scan sees the modules a search does load.
    expect(ofSource(loaded, "knowledge/ranking-core/ranking-core")).toBe(true);
    for (const lazy of [
      "corrective/corrective-pass",
      "corrective/orchestrator",
      "knowledge-tool/tool-arguments",
    ])
      expect(ofSource(loaded, lazy), lazy).toBe(false);
    expect(required).not.toContain("pino");
  }, 60_000);

  it("with the signal grader on: the pass, but neither the argument schemas nor the logger", async () => {
    const on = await bot("on", { correctiveRetrieval: { enabled: true, grader: "signal" } });
    const { result, loaded, required } = await coldSearch(on, "ferry timetable");
    expect(result.final).toContain("ferries.md");
    expect(ofSource(loaded, "corrective/corrective-pass")).toBe(true);
    expect(ofSource(loaded, "knowledge-tool/tool-arguments")).toBe(false);
    expect(required).not.toContain("pino");
  }, 60_000);
});
