// The ingest path as it was before parser threads and segmented stores, kept only so the ingest
// bench can measure it side by side with the current one in the same run: every file parsed in
// the main thread (eight at a time), the collection saved as one JSON string in one file.
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { glob } from "tinyglobby";
import { loadDocument } from "../../src/knowledge/documents/load-document.js";
import { ANALYZER_VERSION } from "../../src/knowledge/index/analyzer.js";
import { type AnalyzedDocument, analyzeDocument } from "../../src/knowledge/index/collection-index.js";

/** A document as the previous format held it in memory: its terms as arrays of strings. */
type StoredDocument = AnalyzedDocument & { path: string; size: number; mtimeMs: number; contentHash: string };

const READ_CONCURRENCY = 8;

export async function previousIngest(botDir: string, pattern: string): Promise<StoredDocument[]> {
  const files = (await glob([pattern], { cwd: botDir, absolute: true, onlyFiles: true })).sort();
  const documents: (StoredDocument | undefined)[] = new Array(files.length);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      const absPath = files[i]!;
      const path = absPath.slice(botDir.length + 1);
      const info = await stat(absPath);
      const loaded = await loadDocument(absPath, path);
      if (!loaded.ok) continue;
      const { text: _text, contentHash, ...document } = loaded.doc;
      documents[i] = {
        ...analyzeDocument(document),
        path,
        size: info.size,
        mtimeMs: info.mtimeMs,
        contentHash,
      };
    }
  };
  await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));
  return documents.filter((d): d is StoredDocument => d !== undefined);
}

export async function previousSave(
  directory: string,
  collection: string,
  documents: readonly StoredDocument[],
) {
  await mkdir(directory, { recursive: true });
  const file = {
    version: 1,
    analyzer: ANALYZER_VERSION,
    collection,
    documents: documents.map((d) => ({
      ...d,
      sections: d.sections.map((s) => ({
        ...s,
        titleTerms: s.titleTerms.join(" "),
        bodyTerms: s.bodyTerms.join(" "),
      })),
    })),
  };
  const target = join(directory, `${collection}.json`);
  const temporary = `${target}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  await writeFile(temporary, JSON.stringify(file));
  await rename(temporary, target);
}

export async function previousLoad(directory: string, collection: string): Promise<StoredDocument[]> {
  const parsed = JSON.parse(await readFile(join(directory, `${collection}.json`), "utf8"));
  return parsed.documents.map(
    (d: StoredDocument & { sections: { titleTerms: string; bodyTerms: string }[] }) => ({
      ...d,
      sections: d.sections.map((s) => ({
        ...s,
        titleTerms: s.titleTerms ? (s.titleTerms as unknown as string).split(" ") : [],
        bodyTerms: s.bodyTerms ? (s.bodyTerms as unknown as string).split(" ") : [],
      })),
    }),
  );
}
