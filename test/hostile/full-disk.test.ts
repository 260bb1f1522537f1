// Issue 24, M2 and L4: an index that cannot be updated (a full disk, a read-only folder) never
// fails a question. `search`, `ask` and `mcp` answer from the last good index and the files as
// read now, exit 0, and warn once naming the cause and the fix; the stored index stays as it
// was. `index`, whose whole job is the save, fails with one line naming SECOND_LOOK_INDEX_DIR —
// also for a bot with no index yet whose folder cannot be created. The faults are injected into
// the real CLI processes (test/support/fs-faults.mjs).
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnStdioMcp } from "../connectors/mcp/stdio-client.js";
import { runCliProcess } from "../support/cli-process.js";

const FAULTS = fileURLToPath(new URL("../support/fs-faults.mjs", import.meta.url));

let root: string;
let bot: string;
let indexes: string;

function faultEnv(code: string, calls: string[], under: string): Record<string, string> {
  return {
    SECOND_LOOK_INDEX_DIR: indexes,
    NODE_OPTIONS: `--import=${FAULTS}`,
    SECOND_LOOK_TEST_FS_FAULT: JSON.stringify({ code, calls, under }),
  };
}

/** The stderr lines that are the warning about the index (JSON log lines or plain text). */
function indexWarnings(stderr: string): string[] {
  return stderr.split("\n").filter((line) => line.includes("cannot update the index"));
}

async function indexFiles(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(indexes, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out[path] = await readFile(path, "utf8");
  }
  return out;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "second-look-full-disk-"));
  bot = join(root, "kb");
  indexes = join(root, "indexes");
  await mkdir(join(bot, "docs"), { recursive: true });
  await writeFile(
    join(bot, "config.json"),
    JSON.stringify({ knowledge: { collections: { docs: { paths: ["docs/**/*.md"] } } } }),
  );
  await writeFile(
    join(bot, "docs", "leave.md"),
    "# Annual leave\n\nEmployees get 25 days of annual leave.\n",
  );
  await writeFile(join(bot, "docs", "travel.md"), "# Travel\n\nBook trains through the travel desk.\n");
  const first = await runCliProcess(["index", bot], { SECOND_LOOK_INDEX_DIR: indexes });
  expect(first.exitCode, first.stderr).toBe(0);
  // A changed file: every command below must try to save the index, and cannot.
  await appendFile(join(bot, "docs", "travel.md"), "\nThe quokka desk books ferries too.\n");
}, 120_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe("a full disk (injected ENOSPC) under an index with a changed file", () => {
  it("search answers, exits 0 and warns once with the cause and the fix; the stored index is untouched", async () => {
    const before = await indexFiles();
    const run = await runCliProcess(
      ["search", bot, "annual leave days", "--json"],
      faultEnv("ENOSPC", ["open", "mkdir"], indexes),
    );
    expect(run.exitCode, run.stderr).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(json.response.results[0].id).toBe("docs/leave.md");
    const warnings = indexWarnings(run.stderr);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("ENOSPC");
    expect(warnings[0]).toContain("SECOND_LOOK_INDEX_DIR");
    expect(warnings[0]).toContain("free space");
    expect(await indexFiles()).toEqual(before);
  }, 60_000);

  it("ask (no model: the corrected results) answers, exits 0 and warns once", async () => {
    const run = await runCliProcess(
      ["ask", bot, "how many days of annual leave"],
      faultEnv("ENOSPC", ["open", "mkdir"], indexes),
    );
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain("Annual leave");
    expect(indexWarnings(run.stderr)).toHaveLength(1);
  }, 60_000);

  it("mcp answers a search over stdio and warns once", async () => {
    const mcp = await spawnStdioMcp(bot, faultEnv("ENOSPC", ["open", "mkdir"], indexes));
    try {
      const result = await mcp.call("search_knowledge", { query: "quokka ferries" });
      expect(result.isError).toBe(false);
      // The changed file as read now, although it could not be saved.
      expect(result.text).toContain("docs/travel.md");
    } finally {
      await mcp.close();
    }
    expect(indexWarnings(mcp.stderr())).toHaveLength(1);
    expect(indexWarnings(mcp.stderr())[0]).toContain("ENOSPC");
  }, 60_000);

  it("index, whose job is the save, fails with one line naming the fix", async () => {
    const run = await runCliProcess(["index", bot], faultEnv("ENOSPC", ["open", "mkdir"], indexes));
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(
      /cannot write the index of collection "docs" to .* \(ENOSPC\); free space there, or set SECOND_LOOK_INDEX_DIR/,
    );
  }, 60_000);
});

describe("a read-only bot folder with no index yet (L4)", () => {
  it("search answers with the warning; index names SECOND_LOOK_INDEX_DIR, for ENOENT, EROFS and EACCES at mkdir", async () => {
    const fresh = join(root, "fresh");
    await mkdir(join(fresh, "docs"), { recursive: true });
    await writeFile(join(fresh, "config.json"), await readFile(join(bot, "config.json")));
    await writeFile(join(fresh, "docs", "leave.md"), "# Annual leave\n\nEmployees get 25 days.\n");
    for (const code of ["ENOENT", "EROFS", "EACCES"]) {
      const env = {
        NODE_OPTIONS: `--import=${FAULTS}`,
        SECOND_LOOK_TEST_FS_FAULT: JSON.stringify({
          code,
          calls: ["mkdir"],
          under: join(fresh, ".second-look"),
        }),
      };
      const search = await runCliProcess(["search", fresh, "annual leave", "--json"], env);
      expect(search.exitCode, `${code}: ${search.stderr}`).toBe(0);
      expect(JSON.parse(search.stdout).response.results[0].id).toBe("docs/leave.md");
      expect(indexWarnings(search.stderr), code).toHaveLength(1);
      const index = await runCliProcess(["index", fresh], env);
      expect(index.exitCode).toBe(1);
      expect(index.stderr, code).toMatch(
        new RegExp(`\\(${code}\\); set SECOND_LOOK_INDEX_DIR to a writable folder`),
      );
    }
  }, 120_000);
});
