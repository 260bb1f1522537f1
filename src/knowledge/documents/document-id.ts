import { relative, sep } from "node:path";
import { isInsideRelative } from "./inside-folder.js";

/**
 * A document's id: its path relative to the collection root with forward slashes, so ids
 * are the same on every platform and stable across machines. Undefined when the file is
 * not inside the root (an id must never climb out of its collection).
 */
export function documentIdFor(collectionRoot: string, absPath: string): string | undefined {
  const rel = relative(collectionRoot, absPath);
  return isInsideRelative(rel) ? rel.split(sep).join("/") : undefined;
}
