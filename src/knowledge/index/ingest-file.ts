import { CollectionAnalysis } from "../analysis/collection-analysis.js";
import { languageDetector } from "../analysis/detect.js";
import { registerAnalyzer } from "../analysis/own-analyzers.js";
import type { AnalyzerDefinition } from "../analysis/text-analyzer.js";
import type { LoadDocumentOptions } from "../documents/load-document.js";
import {
  contentHashOf,
  DEFAULT_MAX_DOCUMENT_BYTES,
  parseDocumentBytes,
  readDocumentFile,
} from "../documents/load-document.js";
import { analyzeDocument, type PackedSection, packDocument } from "./collection-index.js";

/** One file to turn into an indexed document. */
export interface IngestTask {
  absPath: string;
  /** The document id (path relative to the bot folder). */
  id: string;
  /** The stored document's content hash: equal bytes come back as `unchanged`, unparsed. */
  knownHash?: string;
  options?: LoadDocumentOptions;
  /** The collection's `language` setting (a tag, a registered analyzer's name or "auto"; absent: English). */
  language?: string;
  /** The analyzers the program registered, by name (registerAnalyzer): a parser thread registers them too. */
  analyzers?: Record<string, AnalyzerDefinition>;
}

/**
 * A section as it crosses the worker boundary: terms packed (joined by single spaces), because
 * one string per field clones far faster than an array of thousands of short strings.
 */
export type IngestedSection = PackedSection;

export interface IngestedDocument {
  title: string;
  url?: string;
  modifiedTime?: string;
  contentHash: string;
  /** The language the document was analysed in. */
  language: string;
  sections: IngestedSection[];
  /** The encoding the file was read in when it is not UTF-8 and declares none (a guess). */
  decodedAs?: string;
}

export type IngestResult =
  | { ok: true; unchanged: true; contentHash: string }
  | { ok: true; unchanged?: false; document: IngestedDocument }
  | {
      ok: false;
      reason: string /** The pool was closed before the file was done: not the file's fault. */;
      stopped?: true;
      /** The install failed, not the file (a parser that cannot load): report it, never remember it. */
      notTheFile?: true;
    };

/** Reads, parses and analyses one file; never throws for a bad file. Runs inside a parser worker. */
export async function ingestFile(task: IngestTask): Promise<IngestResult> {
  const read = await readDocumentFile(task.absPath, task.options?.maxBytes ?? DEFAULT_MAX_DOCUMENT_BYTES);
  if (!read.ok) return read;
  const contentHash = contentHashOf(read.bytes);
  if (task.knownHash === contentHash) return { ok: true, unchanged: true, contentHash };
  const loaded = await parseDocumentBytes(task.absPath, task.id, read, task.options);
  if (!loaded.ok) return loaded;
  const { text, contentHash: _hash, id: _id, decodedAs, ...parsed } = loaded.doc;
  for (const [name, definition] of Object.entries(task.analyzers ?? {})) registerAnalyzer(name, definition);
  const analysis = CollectionAnalysis.of(task.language);
  const analyzer = analysis.documentAnalyzer(
    `${parsed.title}\n${text}`,
    analysis.isAuto ? await languageDetector() : undefined,
  );
  const analyzed = packDocument(analyzeDocument({ id: task.id, ...parsed }, analyzer));
  const document: IngestedDocument = {
    title: analyzed.title,
    contentHash,
    language: analyzer.language,
    sections: analyzed.sections,
  };
  if (analyzed.url !== undefined) document.url = analyzed.url;
  if (analyzed.modifiedTime !== undefined) document.modifiedTime = analyzed.modifiedTime;
  if (decodedAs !== undefined) document.decodedAs = decodedAs;
  return { ok: true, document };
}
