import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ANALYZER_VERSION } from "./analyzer.js";
import type { AnalyzedDocument, AnalyzedSection } from "./collection-index.js";

/** Bumped whenever the stored shape changes; a mismatch means "rebuild", never "misread". */
export const STORE_VERSION = 1;

/** A document as stored: the analysed document plus what a refresh compares. */
export interface StoredDocument extends AnalyzedDocument {
  /** Path relative to the bot folder (forward slashes); also the document id. */
  path: string;
  size: number;
  mtimeMs: number;
  contentHash: string;
}

interface StoredSection extends Omit<AnalyzedSection, "titleTerms" | "bodyTerms"> {
  /** Terms joined by single spaces: compact in JSON and split back in one native call. */
  titleTerms: string;
  bodyTerms: string;
}

interface CollectionFile {
  version: number;
  analyzer: string;
  collection: string;
  documents: (Omit<StoredDocument, "sections"> & { sections: StoredSection[] })[];
}

/**
 * One JSON file per collection under `<bot>/.second-look/index/`. Writes go to a temporary
 * file that is renamed into place, so a crash or a concurrent reader never sees half an index
 * and the previous index survives a failed write.
 */
export class IndexStore {
  constructor(readonly directory: string) {}

  private fileFor(collection: string): string {
    return join(this.directory, `${encodeURIComponent(collection)}.json`);
  }

  /** The stored documents, or undefined when absent, unreadable or from another version. */
  async load(collection: string): Promise<StoredDocument[] | undefined> {
    let raw: string;
    try {
      raw = await readFile(this.fileFor(collection), "utf8");
    } catch {
      return undefined;
    }
    let parsed: CollectionFile;
    try {
      parsed = JSON.parse(raw) as CollectionFile;
    } catch {
      return undefined;
    }
    if (
      parsed?.version !== STORE_VERSION ||
      parsed.analyzer !== ANALYZER_VERSION ||
      !Array.isArray(parsed.documents)
    ) {
      return undefined;
    }
    return parsed.documents.map((d) => ({
      ...d,
      sections: d.sections.map((s) => ({
        ...s,
        titleTerms: splitTerms(s.titleTerms),
        bodyTerms: splitTerms(s.bodyTerms),
      })),
    }));
  }

  async save(collection: string, documents: readonly StoredDocument[]): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    const file: CollectionFile = {
      version: STORE_VERSION,
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
    const target = this.fileFor(collection);
    const temporary = `${target}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      await writeFile(temporary, JSON.stringify(file));
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}

function splitTerms(joined: string): string[] {
  return joined ? joined.split(" ") : [];
}
