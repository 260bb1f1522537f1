// The one rule for "is this path inside the bot folder": both sides compared as the file system
// resolves them. A bot folder is often reached through a symlink (a deploy's `current ->
// release-1`), and a path under it may itself be a symlink out of it, or may not exist yet (a
// persona file that is optional). Comparing a resolved folder with an unresolved path, or the
// other way round, refuses every path of a symlinked folder or admits a symlink that leaves it.
import { realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/**
 * The path as the file system resolves it: every symlink in it followed. For a path that does
 * not exist, the longest part of it that does is resolved and the rest appended as written (its
 * `..` already applied by `resolve`), so a missing file in a symlinked folder resolves into the
 * folder's real path, as the file will once it is written.
 */
export async function resolvedPath(path: string): Promise<string> {
  const absolute = resolve(path);
  const missing: string[] = [];
  let existing = absolute;
  for (;;) {
    try {
      const real = await realpath(existing);
      return missing.length === 0 ? real : join(real, ...missing.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const parent = dirname(existing);
      // Only a missing part is appended as written; anything else (a loop, no permission, a NUL)
      // leaves the path unresolved, and the caller's own read reports it.
      if ((code !== "ENOENT" && code !== "ENOTDIR") || parent === existing) return absolute;
      missing.push(basename(existing));
      existing = parent;
    }
  }
}

/** Whether `path` lies strictly inside `folder`, both resolved ({@link resolvedPath}). */
export async function isInsideFolder(path: string, folder: string): Promise<boolean> {
  const [root, target] = await Promise.all([resolvedPath(folder), resolvedPath(path)]);
  return isLexicallyInside(target, root);
}

/** Whether `path` lies strictly inside `folder` as written (both absolute or both relative). */
export function isLexicallyInside(path: string, folder: string): boolean {
  return isInsideRelative(relative(folder, path));
}

/** Whether a path relative to a folder (`path.relative(folder, …)`) names something strictly inside it. */
export function isInsideRelative(rel: string): boolean {
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
