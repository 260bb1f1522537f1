// A scratch folder of documents for loader tests: files written into it and loaded as the indexer
// loads them, with the result read as a document or as a refusal (the test fails saying which it got).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import {
  type LoadDocumentOptions,
  type LoadDocumentResult,
  loadDocument,
} from "../../src/knowledge/documents/load-document.js";
import type { LoadedDocument } from "../../src/knowledge/documents/loaded-document.js";

/** A folder made before the file's tests and removed after them; `load` writes a file and loads it. */
export function documentFolder(prefix: string): {
  path: (name: string) => string;
  write: (name: string, content: string | Uint8Array) => Promise<string>;
  load: (
    name: string,
    content: string | Uint8Array,
    options?: LoadDocumentOptions,
  ) => Promise<LoadDocumentResult>;
} {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const path = (name: string) => join(dir, name);
  const write = async (name: string, content: string | Uint8Array) => {
    await writeFile(path(name), content);
    return path(name);
  };
  return {
    path,
    write,
    load: async (name, content, options) => loadDocument(await write(name, content), name, options),
  };
}

/** The document a load made; the test fails with the refusal's reason otherwise. */
export function loaded(result: LoadDocumentResult): LoadedDocument {
  if (!result.ok) throw new Error(`expected a document, got: ${result.reason}`);
  return result.doc;
}

/** The reason a load refused; the test fails naming the document otherwise. */
export function refusal(result: LoadDocumentResult): string {
  if (result.ok) throw new Error(`expected a refusal, got the document ${result.doc.id}`);
  return result.reason;
}
