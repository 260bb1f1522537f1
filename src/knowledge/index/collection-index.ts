import type { Analyzer } from "../analysis/analyzer.js";
import { CollectionAnalysis } from "../analysis/collection-analysis.js";
import { defaultAnalyzer } from "../analysis/registry.js";
import { type Bm25Params, DEFAULT_BM25 } from "./bm25.js";
import {
  type CollectionStatistics,
  isTermIds,
  type LexicalImage,
  LexicalIndex,
  type TermIds,
  type TermSequence,
  type UnitTerms,
} from "./lexical-index.js";

/** A section as the engine indexes it: the unit of scoring. */
export interface IndexableSection {
  headingPath: string[];
  heading?: string;
  level?: number;
  content: string;
  pages?: { start: number; end: number };
  /** The id of the section's heading in its page (HTML), which a link opens at. */
  anchor?: string;
}

/** What the engine needs of a document; the loaders' documents fit this shape. */
export interface IndexableDocument {
  id: string;
  title: string;
  url?: string;
  modifiedTime?: string;
  /** The language tag the document was analysed in (recorded by "auto" collections). */
  language?: string;
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

/**
 * A section with its analysed terms joined by single spaces: the stored form, and what a parser
 * thread hands back. One string per field costs a fraction of an array of short strings.
 */
export interface PackedSection extends IndexableSection {
  titleTerms: string;
  bodyTerms: string;
}

export interface PackedDocument extends Omit<IndexableDocument, "sections"> {
  sections: PackedSection[];
}

/** A section whose terms are packed or, as a stored index loads them, ids into a shared vocabulary. */
export interface StoredSection extends IndexableSection {
  titleTerms: string | TermIds;
  bodyTerms: string | TermIds;
}

export interface StoredTermsDocument extends Omit<IndexableDocument, "sections"> {
  sections: StoredSection[];
}

/** What an index is built from: documents with their sections' terms, as arrays, packed or ids. */
export type TermedDocument = AnalyzedDocument | PackedDocument | StoredTermsDocument;

export function packDocument(doc: AnalyzedDocument): PackedDocument {
  return {
    ...doc,
    sections: doc.sections.map((s) => ({
      ...s,
      titleTerms: s.titleTerms.join(" "),
      bodyTerms: s.bodyTerms.join(" "),
    })),
  };
}

/** The document's sections with their terms, as `analyzer` (the collection's, or the document's own language's) finds them. */
export function analyzeDocument(
  doc: IndexableDocument,
  analyzer: Analyzer = defaultAnalyzer(),
): AnalyzedDocument {
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
      titleTerms: analyzer.analyze([doc.title, ...section.headingPath.slice(1)].join("\n")),
      bodyTerms: analyzer.analyze(section.content),
    })),
  };
}

export interface CollectionIndexOptions {
  /** The collection's analysis (default: English, as for a collection that names no language). */
  analysis?: CollectionAnalysis;
  params?: Bm25Params;
  /** When the documents are part of a larger collection (see CollectionStatistics). */
  statistics?: CollectionStatistics;
  /**
   * Documents per language of the larger collection the documents are part of (its queries are
   * analysed in that mix); else counted from the documents.
   */
  languages?: ReadonlyMap<string, number>;
  /**
   * The analyzer of queries when not the analysis's own: for comparing analyzers over the same
   * documents, whose terms were then found by that analyzer too (bench/prefix-stems.bench.ts).
   */
  queryAnalyzer?: Analyzer;
  /**
   * The stored lexical index of exactly these documents (index-store.ts): used instead of
   * building one when its units' lengths are the documents' sections'; ignored with `statistics`.
   */
  image?: LexicalImage;
}

/**
 * One collection's documents and the lexical index over their sections. The documents are kept
 * without their terms: those live once, as term ids, in the lexical index — so the documents it
 * was built from (and their term strings) can be dropped once it is built.
 */
export class CollectionIndex {
  readonly name: string;
  readonly documents: readonly IndexableDocument[];
  readonly lexical: LexicalIndex;
  /** unit → document index, and unit → section index within that document. */
  readonly unitDocument: Uint32Array;
  readonly unitSection: Uint32Array;
  /** Each document's first unit; documentUnitStart[documents.length] is the unit count. */
  private readonly documentUnitStart: Uint32Array;
  /**
   * Average sections per document of the collection (of the whole collection when built with its
   * statistics): the page ranking's length normalisation.
   */
  readonly unitsPerDocument: number;
  /** How the collection's text is analysed (its configured language, or "auto"). */
  readonly analysis: CollectionAnalysis;
  /** Documents per language they were analysed in. */
  readonly languages: ReadonlyMap<string, number>;
  /**
   * The collection's analyzer of query text when no one query is in view (hints, feedback
   * stopwords): its language's, or for "auto" every language it holds. A query's own terms come
   * from `queryAnalyzerFor`.
   */
  readonly analyzer: Analyzer;
  private readonly fixedQueryAnalyzer: Analyzer | undefined;
  private readonly byId: Map<string, number>;

  constructor(name: string, documents: readonly TermedDocument[], options: CollectionIndexOptions = {}) {
    const params = options.params ?? DEFAULT_BM25;
    const statistics = options.statistics;
    this.name = name;
    this.analysis = options.analysis ?? CollectionAnalysis.of(undefined);
    this.languages = options.languages ?? documentsPerLanguage(documents, this.analysis.setting);
    const languages = this.languages;
    this.fixedQueryAnalyzer = options.queryAnalyzer;
    this.analyzer = options.queryAnalyzer ?? this.analysis.queryAnalyzer(languages);
    this.byId = new Map(documents.map((d, i) => [d.id, i]));
    let unitCount = 0;
    for (const d of documents) unitCount += d.sections.length;
    this.unitDocument = new Uint32Array(unitCount);
    this.unitSection = new Uint32Array(unitCount);
    this.documentUnitStart = new Uint32Array(documents.length + 1);
    const units: UnitTerms[] = [];
    documents.forEach((doc, d) => {
      this.documentUnitStart[d] = units.length;
      doc.sections.forEach((section, s) => {
        this.unitDocument[units.length] = d;
        this.unitSection[units.length] = s;
        units.push({ title: section.titleTerms, body: section.bodyTerms });
      });
    });
    this.documentUnitStart[documents.length] = units.length;
    const image = options.image;
    this.lexical =
      image && !statistics && imageFits(image, units)
        ? LexicalIndex.fromImage(image, params)
        : LexicalIndex.build(units, params, statistics);
    const documentCount = statistics?.documentCount ?? documents.length;
    this.unitsPerDocument = documentCount > 0 ? Math.max(1, this.lexical.unitCount / documentCount) : 1;
    this.documents = documents.map(withoutTerms);
  }

  /** This index scoring with other BM25F parameters; documents and units are shared. */
  withParams(params: Bm25Params): CollectionIndex {
    const copy: CollectionIndex = Object.create(CollectionIndex.prototype);
    Object.assign(copy, this, { lexical: this.lexical.withParams(params) });
    return copy;
  }

  /**
   * This index with the collection-wide document frequencies read again from the statistics it
   * was built with (see LexicalIndex.restated); documents and units are shared.
   */
  restated(): CollectionIndex {
    const copy: CollectionIndex = Object.create(CollectionIndex.prototype);
    Object.assign(copy, this, { lexical: this.lexical.restated() });
    return copy;
  }

  /** The analyzer of one query: for "auto", the query's own language when the detector is sure of it. */
  queryAnalyzerFor(query: string): Analyzer {
    return this.fixedQueryAnalyzer ?? this.analysis.queryAnalyzer(this.languages, query);
  }

  get documentCount(): number {
    return this.documents.length;
  }

  /** The document's units: [first, end). */
  documentUnits(document: number): [number, number] {
    return [this.documentUnitStart[document]!, this.documentUnitStart[document + 1]!];
  }

  documentIndex(id: string): number | undefined {
    return this.byId.get(id);
  }
}

/** Whether an image's units are these, by their fields' lengths (its streams are their terms, as stored together). */
function imageFits(image: LexicalImage, units: readonly UnitTerms[]): boolean {
  if (image.titleLengths.length !== units.length) return false;
  // Only ids are what a stored image was made of; another form never fits one.
  const length = (terms: TermSequence) => (isTermIds(terms) ? terms.ids.length : Number.NaN);
  return units.every(
    (unit, u) => length(unit.title) === image.titleLengths[u] && length(unit.body) === image.bodyLengths[u],
  );
}

/** How many of the documents each language holds (a document that names none: the setting's). */
function documentsPerLanguage(documents: readonly TermedDocument[], setting: string): Map<string, number> {
  const languages = new Map<string, number>();
  for (const d of documents) {
    const language = d.language ?? setting;
    languages.set(language, (languages.get(language) ?? 0) + 1);
  }
  return languages;
}

/** The document as search results show it: everything but its terms. */
function withoutTerms(doc: TermedDocument): IndexableDocument {
  return {
    ...doc,
    sections: doc.sections.map(({ titleTerms: _title, bodyTerms: _body, ...section }) => section),
  };
}
