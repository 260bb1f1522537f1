// Every source file under src/, read once, for the tests that check the code's shape
// (test/error-contract.test.ts, test/function-length.test.ts).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export interface SourceFile {
  /** Relative to the repository, with forward slashes (`src/errors.ts`). */
  file: string;
  text: string;
}

/** The files under src/ whose names end with `.ts` (or another of `extensions`). */
export function readSourceFiles(extensions: readonly string[] = [".ts"]): SourceFile[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path);
      return extensions.some((ext) => entry.name.endsWith(ext)) ? [path] : [];
    });
  return walk(join(repoRoot, "src")).map((path) => ({
    file: relative(repoRoot, path).split("\\").join("/"),
    text: readFileSync(path, "utf8"),
  }));
}

/**
 * Checks an allow-list against the files: every entry names a file that exists, gives a reason,
 * and still has what it allows (`found` is non-empty), so the list cannot go stale.
 */
export function staleEntries(
  allowed: ReadonlyMap<string, string>,
  files: readonly SourceFile[],
  found: (entry: SourceFile) => readonly string[],
): string[] {
  const stale: string[] = [];
  for (const [file, reason] of allowed) {
    const entry = files.find((f) => f.file === file);
    if (reason.trim() === "") stale.push(`${file}: no reason given`);
    else if (!entry) stale.push(`${file}: no such file`);
    else if (found(entry).length === 0) stale.push(`${file}: nothing left to allow`);
  }
  return stale;
}
