// The launcher's code cache (src/cli/code-cache.ts): a command's second run takes the bytecode its
// first run left; a changed bundle, a damaged cache file or a folder others can write never stops a
// command, and none is ever read as code.
import { execFile } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { CODE_CACHE_FILES, CODE_CACHE_VARIABLE, codeCacheDir } from "../../src/cli/code-cache.js";

const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, "../..");
const root = mkdtempSync(join(tmpdir(), "second-look-code-cache-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * A CommonJS bundle as scripts/bundle-cli.mjs writes one (its import() of a package handed over
 * by the launcher), with enough functions to cache; `main` prints its argument, a sum, a
 * non-ASCII match and what the import brought.
 */
function bundle(name: string, version: number): string {
  const functions = Array.from(
    { length: 200 },
    (_, i) => `function f${i}(x) { return x * ${i} + ${version}; }`,
  );
  const file = join(root, `${name}.cjs`);
  writeFileSync(
    file,
    "var __secondLookImport = __secondLookImport ?? ((specifier) => import(specifier));\n" +
      `${functions.join("\n")}\nconst path = require("node:path");\n` +
      'exports.main = async (args) => { let s = 0; for (let i = 0; i < 200; i++) s += eval("f" + i)(1); ' +
      'const imported = typeof (await __secondLookImport("node:os")).platform; ' +
      "process.stdout.write(JSON.stringify({ args, sum: s, base: path.basename(__filename), " +
      'mark: /[·]/.test("a · b"), imported })); };\n',
  );
  return file;
}

interface Output {
  args: string[];
  sum: number;
  base: string;
  mark: boolean;
  imported: string;
}

/** Runs `file`'s main through runBundle in a process of its own; its output and how it met the cache. */
async function launch(file: string, cacheDir: string, command = "search") {
  const script = `import { runBundle } from ${JSON.stringify(join(REPO, "src/cli/code-cache.ts"))};
    const r = runBundle(${JSON.stringify(file)}, ${JSON.stringify(command)}, ${JSON.stringify(cacheDir)});
    process.stderr.write(r.cache);
    await r.exports.main([${JSON.stringify(command)}]);`;
  const { stdout, stderr } = await run(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", script],
    { cwd: REPO },
  );
  return { output: JSON.parse(stdout) as Output, cache: stderr };
}

describe("the launcher's code cache", () => {
  it("writes the cache when a command ends and uses it on the command's next run", async () => {
    const file = bundle("first", 1);
    const cacheDir = join(root, "cache-a");
    const first = await launch(file, cacheDir);
    expect(first.cache).toBe("written-at-exit");
    expect(first.output).toEqual({
      args: ["search"],
      sum: 19900 + 200,
      base: "first.cjs",
      mark: true,
      imported: "function",
    });
    const files = readdirSync(cacheDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{32}-search\.bin$/);
    const second = await launch(file, cacheDir);
    expect(second.cache).toBe("used");
    // A package imported from code made of cached data too (Node 20 loses the script's own import()).
    expect(second.output).toEqual(first.output);
    // Another command keeps a cache of its own.
    expect((await launch(file, cacheDir, "index")).cache).toBe("written-at-exit");
    expect(readdirSync(cacheDir).sort()).toEqual([files[0], files[0]!.replace("-search", "-index")].sort());
  });

  it("never reads one bundle's cache for another, and keeps the newest files only", async () => {
    const cacheDir = join(root, "cache-b");
    const file = bundle("changing", 1);
    await launch(file, cacheDir);
    const before = readdirSync(cacheDir);
    // Same length, other text: V8 alone would not notice.
    bundle("changing", 2);
    const changed = await launch(file, cacheDir);
    expect(changed.cache).toBe("written-at-exit");
    expect(changed.output.sum).toBe(19900 + 400);
    const after = readdirSync(cacheDir);
    expect(after).toHaveLength(2);
    expect(after).toContain(before[0]);
    // Older files beyond the bound go, the oldest first.
    for (let i = 0; i < CODE_CACHE_FILES; i++) {
      const old = join(cacheDir, `${String(i).padStart(32, "0")}-search.bin`);
      writeFileSync(old, "");
      utimesSync(old, 1_000 + i, 1_000 + i);
    }
    bundle("changing", 3);
    await launch(file, cacheDir);
    const kept = readdirSync(cacheDir);
    expect(kept).toHaveLength(CODE_CACHE_FILES);
    expect(kept).toContain(after.find((name) => name !== before[0]));
    expect(kept).not.toContain(`${"0".repeat(32)}-search.bin`);
  });

  it("compiles as before from a damaged cache file and writes a sound one", async () => {
    const file = bundle("damaged", 1);
    const cacheDir = join(root, "cache-c");
    await launch(file, cacheDir);
    const cacheFile = join(cacheDir, readdirSync(cacheDir)[0]!);
    writeFileSync(cacheFile, Buffer.from("not bytecode at all"));
    const damaged = await launch(file, cacheDir);
    expect(damaged.cache).toBe("rejected");
    expect(damaged.output.sum).toBe(19900 + 200);
    expect(readFileSync(cacheFile).length).toBeGreaterThan(100);
    expect((await launch(file, cacheDir)).cache).toBe("used");
  });

  it("reads no cache from a folder others can write, and runs all the same", async () => {
    const file = bundle("shared", 1);
    const cacheDir = join(root, "cache-d");
    mkdirSync(cacheDir);
    chmodSync(cacheDir, 0o777);
    const shared = await launch(file, cacheDir);
    expect(shared.cache).toBe("off");
    expect(shared.output.sum).toBe(19900 + 200);
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  it("runs without a cache where the folder cannot be made", async () => {
    const file = bundle("nowhere", 1);
    const blocker = join(root, "a-file");
    writeFileSync(blocker, "");
    const result = await launch(file, join(blocker, "cache"));
    expect(result.cache).toBe("off");
    expect(result.output.sum).toBe(19900 + 200);
  });

  it("is off when the variable says so, and otherwise under the user's cache folder", () => {
    expect(codeCacheDir({ [CODE_CACHE_VARIABLE]: "off", HOME: "/home/u" })).toBeUndefined();
    expect(codeCacheDir({ [CODE_CACHE_VARIABLE]: "/var/cache/sl", HOME: "/home/u" })).toBe("/var/cache/sl");
    expect(codeCacheDir({ XDG_CACHE_HOME: "/x/cache", HOME: "/home/u" })).toBe("/x/cache/second-look/code");
    expect(codeCacheDir({ HOME: "/home/u" })).toBe("/home/u/.cache/second-look/code");
    expect(codeCacheDir({})).toBeUndefined();
  });
});
