import { analyze } from "./analyzer.js";
import { type Bm25Params, DEFAULT_BM25 } from "./bm25.js";
import { type CollectionStatistics, LexicalIndex } from "./lexical-index.js";

/** A section as the engine indexes it: the unit of scoring. */
export interface IndexableSection {
  headingPath: string[];
  heading?: string;
  level?: number;
  content: string;
  pages?: { start: number; end: number };
}

/** What the engine needs of a document; the loaders' documents fit this shape. */
export interface IndexableDocument {
  id: string;
  title: string;
  url?: string;
  modifiedTime?: string;
  sections: IndexableSection[];
}

/** A section with its analysed terms, kept so a persisted index reloads without re-analysis. */
export interface AnalyzedSection extends IndexableSection {
  titleTerms: string[];
  bodyTerms: string[];
}

export interface AnalyzedDocument extends Omit<IndexableDocument, "sections"> {
  sections: AnalyzedSection[];
}

export function analyzeDocument(doc: IndexableDocument): AnalyzedDocument {
  // A heading with no text under it ("# Title" before the first "##") is not a section a
  // reader can use: its words already reach the index through its children's heading paths.
  const withText = doc.sections.filter((s) => s.content.trim() !== "");
  const sections = withText.length ? withText : doc.sections.slice(0, 1);
  return {
    ...doc,
    sections: sections.map((section) => ({
      ...section,
      // The title field carries the document title and the heading path, so a section is
      // found by the words that name it as well as by its text.
      titleTerms: analyze([doc.title, ...section.headingPath.slice(1)].join("\n")),
      bodyTerms: analyze(section.content),
    })),
  };
}

/** One collection's documents and the lexical index over their sections. */
export class CollectionIndex {
  readonly name: string;
  readonly documents: readonly AnalyzedDocument[];
  readonly lexical: LexicalIndex;
  /** unit → document index, and unit → section index within that document. */
  readonly unitDocument: Uint32Array;
  readonly unitSection: Uint32Array;
  private readonly byId: Map<string, number>;

  /** `statistics` when `documents` are part of a larger collection (see CollectionStatistics). */
  constructor(
    name: string,
    documents: readonly AnalyzedDocument[],
    params: Bm25Params = DEFAULT_BM25,
    statistics?: CollectionStatistics,
  ) {
    this.name = name;
    this.documents = documents;
    this.byId = new Map(documents.map((d, i) => [d.id, i]));
    let unitCount = 0;
    for (const d of documents) unitCount += d.sections.length;
    this.unitDocument = new Uint32Array(unitCount);
    this.unitSection = new Uint32Array(unitCount);
    const units: { title: string[]; body: string[] }[] = [];
    documents.forEach((doc, d) => {
      doc.sections.forEach((section, s) => {
        this.unitDocument[units.length] = d;
        this.unitSection[units.length] = s;
        units.push({ title: section.titleTerms, body: section.bodyTerms });
      });
    });
    this.lexical = LexicalIndex.build(units, params, statistics);
  }

  get documentCount(): number {
    return this.documents.length;
  }

  documentIndex(id: string): number | undefined {
    return this.byId.get(id);
  }
}
