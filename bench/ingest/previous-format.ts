// The ingest path as it was before parser threads and segmented stores, kept only so the ingest
// bench can measure it side by side with the current one in the same run: every file parsed in
// the main thread (eight at a time), terms held as arrays of strings, the collection saved as one
// JSON string in one file. Its loader and analyser come from the source tree the bench names
// (an earlier commit's, extracted by the bench), so the in-memory model is that commit's too.
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { glob } from "tinyglobby";

interface Section {
  titleTerms: string[];
  bodyTerms: string[];
  [field: string]: unknown;
}
/** A document as the previous format held it in memory: its terms as arrays of strings. */
interface PreviousDocument {
  sections: Section[];
  [field: string]: unknown;
}

const READ_CONCURRENCY = 8;
const source = (srcRoot: string, path: string) => import(pathToFileURL(join(srcRoot, path)).href);

export async function previousIngest(
  botDir: string,
  pattern: string,
  srcRoot: string,
): Promise<PreviousDocument[]> {
  const { loadDocument } = await source(srcRoot, "knowledge/documents/load-document.ts");
  const { analyzeDocument } = await source(srcRoot, "knowledge/index/collection-index.ts");
  const files = (await glob([pattern], { cwd: botDir, absolute: true, onlyFiles: true })).sort();
  const documents: (PreviousDocument | undefined)[] = new Array(files.length);
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
  return documents.filter((d): d is PreviousDocument => d !== undefined);
}

export async function previousSave(
  directory: string,
  collection: string,
  documents: readonly PreviousDocument[],
) {
  await mkdir(directory, { recursive: true });
  const file = {
    version: 1,
    analyzer: "en-porter-1",
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

export async function previousLoad(directory: string, collection: string): Promise<PreviousDocument[]> {
  const parsed = JSON.parse(await readFile(join(directory, `${collection}.json`), "utf8"));
  return parsed.documents.map(
    (d: { sections: { titleTerms: string; bodyTerms: string }[] }): PreviousDocument => ({
      ...d,
      sections: d.sections.map((s) => ({
        ...s,
        titleTerms: s.titleTerms ? s.titleTerms.split(" ") : [],
        bodyTerms: s.bodyTerms ? s.bodyTerms.split(" ") : [],
      })),
    }),
  );
}
