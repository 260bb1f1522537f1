// Runs the bundled CLI (dist/cli-bundle/main.cjs, scripts/bundle-cli.mjs) with V8's code cache:
// the bytecode of the functions a command ran, kept after its first run, so later runs of that
// command neither parse nor compile them. A cold `second-look search` spends about a third of its
// time compiling (bench/results/first-use.md). Node 22's module.enableCompileCache does this for
// every module; Node 20 offers it to a script only (vm.Script `cachedData`), hence one CommonJS
// bundle. A cache that is missing, rejected by V8, unreadable or unwritable only means compiling as
// before: nothing here may stop a command.
import { isAscii } from "node:buffer";
import { createHash } from "node:crypto";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";

/** Where the cache lives, or `off`; unset: $XDG_CACHE_HOME/second-look/code, else ~/.cache/second-look/code. */
export const CODE_CACHE_VARIABLE = "SECOND_LOOK_CODE_CACHE";

/** How a run met the cache: used, to be written when the command ends, rejected (rewritten then), or off. */
export type CodeCacheState = "used" | "written-at-exit" | "rejected" | "off";

export interface BundleRun {
  exports: Record<string, unknown>;
  cache: CodeCacheState;
}

/** The cache folder `env` names, or undefined when it turns the cache off or names none. */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const set = env[CODE_CACHE_VARIABLE]?.trim();
  if (set === "off") return undefined;
  if (set) return set;
  const home = env.HOME?.trim();
  const base = env.XDG_CACHE_HOME?.trim() || (home ? join(home, ".cache") : undefined);
  return base ? join(base, "second-look", "code") : undefined;
}

/**
 * A folder only this user can write, made so if missing; undefined otherwise: bytecode read from a
 * folder others can write would run as code they chose.
 */
function privateFolder(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = statSync(dir);
    const owner = process.getuid?.();
    if (!stat.isDirectory() || (owner !== undefined && stat.uid !== owner) || (stat.mode & 0o022) !== 0)
      return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * A cache file per bundle text, Node build and command: V8 checks the flags and its version but
 * not the source's text, so the text's hash is in the name; each command keeps the functions its
 * own runs compile.
 */
function cacheFileName(bytes: Buffer, command: string | undefined): string {
  const hash = createHash("sha1")
    .update(`${process.version} ${process.arch} ${process.versions.v8}\n`)
    .update(bytes)
    .digest("hex")
    .slice(0, 32);
  const label = command && /^[a-z][a-z-]{0,31}$/.test(command) ? command : "other";
  return `${hash}-${label}.bin`;
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Cache files kept in the folder: each about a megabyte, one per command and build. Two installed
 * versions or two Node versions used in turn keep theirs; the least recently written go first.
 */
export const CODE_CACHE_FILES = 24;

/** Writes the cache whole or not at all (a concurrent run reads the old file or the new one), then keeps the newest files. */
function writeCache(dir: string, name: string, data: Buffer): void {
  const file = join(dir, name);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, data, { mode: 0o600 });
    renameSync(temporary, file);
    const kept = readdirSync(dir)
      .filter((other) => other.endsWith(".bin"))
      .map((other) => ({ path: join(dir, other), written: statSync(join(dir, other)).mtimeMs }))
      .sort((a, b) => b.written - a.written);
    for (const old of kept.slice(CODE_CACHE_FILES)) unlinkSync(old.path);
  } catch {
    try {
      unlinkSync(temporary);
    } catch {
      // Nothing was written.
    }
  }
}

/**
 * Loads the CommonJS file `file` as Node would, through the code cache in `cacheDir` for the
 * command `command` (its first argument); when no usable cache was there, the code this process
 * compiled is written when it exits.
 */
export function runBundle(file: string, command: string | undefined, cacheDir = codeCacheDir()): BundleRun {
  const bytes = readFileSync(file);
  // An ASCII text (what esbuild writes but for a few regular expressions) decodes byte for byte.
  const source = bytes.toString(isAscii(bytes) ? "latin1" : "utf8");
  const dir = cacheDir === undefined ? undefined : privateFolder(cacheDir);
  const name = dir === undefined ? "" : cacheFileName(bytes, command);
  const cached = dir === undefined ? undefined : readCache(join(dir, name));
  // Node's CommonJS wrapper and one more parameter: the bundle's import() of the packages left
  // outside it (peer dependencies, eld, undici) is this module's, because in Node 20 a script made
  // from cached data has no import() of its own (scripts/bundle-cli.mjs DYNAMIC_IMPORT).
  const wrapper = `(function (exports, require, module, __filename, __dirname, __secondLookImport) { ${source}\n})`;
  const script = new Script(wrapper, { filename: file, cachedData: cached });
  const module = { exports: {} as Record<string, unknown> };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  const importPackage = (specifier: string): Promise<unknown> => import(specifier);
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file), importPackage);
  let cache: CodeCacheState = "off";
  if (dir !== undefined) {
    cache = cached === undefined ? "written-at-exit" : script.cachedDataRejected ? "rejected" : "used";
    if (cache !== "used") process.once("exit", () => writeCache(dir, name, script.createCachedData()));
  }
  return { exports: module.exports, cache };
}
