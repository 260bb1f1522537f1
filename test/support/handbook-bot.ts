// A copy of the example handbook bot in a folder of the test's own, with the config the test
// gives, its embedded index built once here so processes spawned on it only load it.
import { cp, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadBot } from "../../src/bots/discovery.js";
import { searchAsTheModelWould } from "../../src/cli/search.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The handbook's knowledge section, as a bot config names it. */
export const HANDBOOK_KNOWLEDGE = {
  backend: "embedded",
  collections: { handbook: { paths: ["docs/**/*.md"] } },
} as const;

/** Copies the handbook's documents into `botDir`, writes `config`, builds the index. */
export async function makeHandbookBot(botDir: string, config: Record<string, unknown>): Promise<void> {
  await cp(join(REPO, "bots/handbook/docs"), join(botDir, "docs"), { recursive: true });
  await writeFile(join(botDir, "config.json"), JSON.stringify({ knowledge: HANDBOOK_KNOWLEDGE, ...config }));
  await searchAsTheModelWould(
    await loadBot(botDir, { quiet: true }),
    { query: "warm up" },
    { correct: false, progress: false },
  );
}
