// What `eval --questions` names: one judged-questions file, a comma-separated list of them, or
// glob patterns (`queries.*.jsonl`: one file per language of the same questions), each pattern's
// matches in name order. Each file is judged on its own and labelled by what tells it apart.
import { basename, isAbsolute } from "node:path";
import { glob, isDynamicPattern } from "tinyglobby";
import { CliError } from "./cli-error.js";

/** Files `--questions` may name at once: a pattern that matches a whole tree is a mistake. */
export const MAX_QUESTION_FILES = 100;

/** The files, in the order given (a pattern's matches sorted), each once; a pattern matching nothing is an error. */
export async function questionFiles(value: string, cwd: string = process.cwd()): Promise<string[]> {
  const parts = value
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  if (!parts.length) throw new CliError("--questions is empty: give a file, a list of files or a glob");
  const files: string[] = [];
  for (const part of parts) {
    if (!isDynamicPattern(part)) {
      files.push(part);
      continue;
    }
    // Matches are written as the pattern was: absolute for an absolute pattern, else relative to cwd.
    const matches = (
      await glob(part, { cwd, onlyFiles: true, expandDirectories: false, absolute: isAbsolute(part) })
    ).sort();
    if (!matches.length) throw new CliError(`--questions: no file matches ${part}`);
    files.push(...matches);
  }
  const unique = [...new Set(files)];
  if (unique.length > MAX_QUESTION_FILES) {
    throw new CliError(`--questions names ${unique.length} files; at most ${MAX_QUESTION_FILES}`);
  }
  return unique;
}

/**
 * A short label per file: the file names without the prefix and suffix they all share
 * (`queries.de.jsonl`, `queries.ja.jsonl` → `de`, `ja`); a lone file, or names that would end
 * up empty or alike, keep their whole name.
 */
export function questionFileLabels(files: readonly string[]): string[] {
  const names = files.map((f) => basename(f));
  if (names.length < 2) return names;
  let prefix = names[0]!;
  let suffix = names[0]!;
  for (const name of names) {
    while (!name.startsWith(prefix)) prefix = prefix.slice(0, -1);
    while (!name.endsWith(suffix)) suffix = suffix.slice(1);
  }
  const labels = names.map((n) => n.slice(prefix.length, Math.max(prefix.length, n.length - suffix.length)));
  const usable = labels.every(Boolean) && new Set(labels).size === labels.length;
  return usable ? labels : names;
}
