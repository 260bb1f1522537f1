import { SecondLookError } from "../errors.js";
import { clampHitLimit, SEARCH_LIMITS } from "../limits.js";
import type { Doc, DocSection, Hit, KnowledgeBackend, SearchRequest, SearchResponse } from "../types.js";
import { CollectionAnalysis } from "./analysis/collection-analysis.js";
import { compoundPlan } from "./analysis/compounds.js";
import { defaultAnalyzer } from "./analysis/registry.js";
import { bodyBudgetAt, withinBudget } from "./context-budget.js";
import { feedbackHints } from "./hints/feedback-hints.js";
import { rescueCandidates, type TermVocabulary } from "./hints/rescue-candidates.js";
import { retryHints } from "./hints/retry-hints.js";
import { analyzeDocument, CollectionIndex, type IndexableDocument } from "./index/collection-index.js";
import { type CollectionRanking, rankCollection } from "./index/ranker.js";
import {
  bandFor,
  type CalibrationModel,
  DEFAULT_CALIBRATION,
  isWeak,
  relevanceAndBand,
} from "./relevance.js";
import { relevanceFeatures } from "./relevance-features.js";
import { snippetFor } from "./snippet.js";

/** A search named a collection outside what this engine (or the bot) may search. */
export class UnknownCollectionError extends SecondLookError {
  constructor(
    readonly collection: string,
    readonly available: readonly string[],
  ) {
    // Huginn's adapter wording, so a model sees the same text whichever backend answered.
    super(
      "knowledge",
      "unknown-collection",
      `Collection '${collection}' is not available. Available: ${available.join(", ")}`,
    );
    this.name = "UnknownCollectionError";
  }
}

interface CollectionHit {
  hit: Hit;
  ranking: CollectionRanking;
  index: CollectionIndex;
}

/**
 * The in-process knowledge engine: BM25F with proximity over document sections, an optional
 * pseudo-relevance-feedback rerank pass, calibrated relevance and the weak-result signal with
 * retry hints. Searching is synchronous and bounded (milliseconds); the async signature is the
 * backend contract's.
 */
export class KnowledgeEngine implements KnowledgeBackend {
  private readonly indexes: Map<string, CollectionIndex>;
  private calibration: CalibrationModel = DEFAULT_CALIBRATION;

  constructor(indexes: readonly CollectionIndex[], options: { calibration?: CalibrationModel } = {}) {
    this.indexes = new Map(indexes.map((i) => [i.name, i]));
    if (options.calibration) this.calibration = options.calibration;
  }

  /** The relevance calibration this engine applies (a bot's own fit, or the shipped one). */
  get calibrationModel(): CalibrationModel {
    return this.calibration;
  }

  /** Replace the relevance calibration (a bot's own fit from `second-look calibrate`). */
  useCalibration(model: CalibrationModel): void {
    this.calibration = model;
  }

  /** Build an engine from documents in memory (tests, evaluation, small corpora). */
  static fromDocuments(
    collections: Record<string, readonly IndexableDocument[]>,
    options: { language?: string } = {},
  ): KnowledgeEngine {
    const analysis = CollectionAnalysis.of(options.language);
    return new KnowledgeEngine(
      Object.entries(collections).map(
        ([name, docs]) =>
          new CollectionIndex(
            name,
            docs.map((doc) => analyzeDocument(doc, analysis.storedAnalyzer(doc.language))),
            { analysis },
          ),
      ),
    );
  }

  collections(): string[] {
    return [...this.indexes.keys()];
  }

  /**
   * Puts a rebuilt index of one of the engine's collections in place of the old one (a refresh
   * finished after the engine started answering). Searching is synchronous, so a search sees the
   * old index or the new one, never a mix.
   */
  replaceCollection(index: CollectionIndex): void {
    if (!this.indexes.has(index.name)) {
      throw new UnknownCollectionError(index.name, this.collections());
    }
    this.indexes.set(index.name, index);
  }

  collectionIndex(name: string): CollectionIndex | undefined {
    return this.indexes.get(name);
  }

  async search(request: SearchRequest, options: { signal?: AbortSignal } = {}): Promise<SearchResponse> {
    options.signal?.throwIfAborted();
    return this.searchSync(request);
  }

  searchSync(request: SearchRequest): SearchResponse {
    const query = typeof request.query === "string" ? request.query.slice(0, SEARCH_LIMITS.queryChars) : "";
    const limit = clampHitLimit(request.limit);
    const brief = request.brief === true;
    // Huginn's default: rerank unless brief (a brief call is the quick overview).
    const rerank = request.rerank ?? !brief;
    const targets = this.resolveCollections(request.collections);

    const found: CollectionHit[] = [];
    let reranked = targets.length > 0;
    for (const index of targets) {
      // Each collection analyses the query in its own language(s), compounds met through its vocabulary.
      const terms = queryTermsFor(query, index);
      const queryTerms = new Set(terms);
      const ranking = rankCollection(index, terms, { rerank, limit });
      reranked &&= ranking.reranked;
      const features = relevanceFeatures(ranking);
      let ceiling = 1;
      for (const [position, ranked] of ranking.documents.entries()) {
        const hit = this.toHit(index, ranked, queryTerms, brief);
        Object.assign(hit, relevanceAndBand(features[position]!, this.calibration));
        // A collection's ranking is the better judge of order than one feature: relevance is
        // kept non-increasing along it, so merging collections by relevance never reorders one.
        if (hit.relevance > ceiling) Object.assign(hit, { relevance: ceiling, band: bandFor(ceiling) });
        ceiling = hit.relevance;
        found.push({ hit, ranking, index });
      }
    }
    // Stable sort: equal relevance keeps each collection's order.
    found.sort((a, b) => b.hit.relevance - a.hit.relevance);
    const top = found.slice(0, limit);
    const bestScore = top[0]?.hit.relevance ?? 0;
    const minRelevance = typeof request.minRelevance === "number" ? request.minRelevance : undefined;
    const results = top
      .map((f) => f.hit)
      .filter((h) => minRelevance === undefined || h.relevance >= minRelevance)
      // Full mode spends the body text on the leading hits (context-budget.ts).
      .map((h, rank) => (brief ? h : withinBudget(h, bodyBudgetAt(rank))));

    const response: SearchResponse = { query, results, bestScore, reranked };
    if (!results.length) response.noConfidentResults = true;
    if (isWeak(response)) {
      const feedback = this.feedbackFor(top, query);
      // The hints speak the language of the collection whose hits lead (else the first searched).
      const analyzer = (top[0]?.index ?? targets[0])?.analyzer ?? defaultAnalyzer();
      const plan = rescueCandidates(query, vocabularyOf(targets), analyzer, feedback.relatedTerms);
      const hints = retryHints(query, feedback, analyzer, plan);
      if (hints) response.retryHints = hints;
    }
    return response;
  }

  async getDocument(collection: string, id: string): Promise<Doc | undefined> {
    const index = this.indexes.get(collection);
    const position = index?.documentIndex(id);
    if (!index || position === undefined) return undefined;
    return toDoc(collection, index.documents[position]!);
  }

  private resolveCollections(requested: readonly string[] | undefined): CollectionIndex[] {
    if (!requested?.length) return [...this.indexes.values()];
    const out: CollectionIndex[] = [];
    for (const name of new Set(requested)) {
      const index = this.indexes.get(name);
      if (!index) throw new UnknownCollectionError(name, this.collections());
      out.push(index);
    }
    return out;
  }

  /** Hints come from the collection whose hits lead: its vocabulary is the query's topic. */
  private feedbackFor(top: readonly CollectionHit[], query: string) {
    const lead = top[0];
    if (!lead) return {};
    // The sections the relevance model read: its terms' surface forms are found where it found them.
    const texts = lead.ranking.feedbackUnits.map((unit) => {
      const doc = lead.index.documents[lead.index.unitDocument[unit]!]!;
      return doc.sections[lead.index.unitSection[unit]!]!.content;
    });
    return feedbackHints(query, lead.ranking.feedback, texts, lead.index.analyzer);
  }

  private toHit(
    index: CollectionIndex,
    ranked: CollectionRanking["documents"][number],
    queryTerms: ReadonlySet<string>,
    brief: boolean,
  ): Hit {
    const doc = index.documents[ranked.document]!;
    const sections = ranked.units.map((u) => doc.sections[index.unitSection[u.unit]!]!);
    const best = sections[0]!;
    const hit: Hit = {
      collection: index.name,
      id: doc.id,
      title: doc.title,
      // Set by the caller from the ranking's features.
      relevance: 0,
      band: "low",
    };
    if (doc.url) hit.url = doc.url;
    if (best.heading) hit.heading = best.heading;
    // Ancestors of the matched section, below the document title (which the header shows).
    const ancestors = best.headingPath.slice(1, -1);
    if (ancestors.length) hit.breadcrumb = ancestors.join(" > ");
    if (doc.modifiedTime) hit.modifiedTime = doc.modifiedTime;
    if (best.pages) hit.pages = best.pages;
    if (brief) {
      hit.snippet = snippetFor(best.content, queryTerms, index.analyzer);
    } else {
      hit.chunks = sections.map((s) =>
        s.heading ? { heading: s.heading, content: s.content } : { content: s.content },
      );
    }
    return hit;
  }
}

/** The query's terms in a collection: its analysis, plus compound parts and joins the collection holds. */
export function queryTermsFor(query: string, index: CollectionIndex): string[] {
  const terms = index.analyzer.analyze(query);
  const compounds = compoundPlan(query, index.analyzer);
  if (!compounds.candidates.length) return terms;
  const { lexical } = index;
  const extra = compounds.choose((term) => {
    const id = lexical.termId(term);
    return id === undefined ? 0 : lexical.documentFrequency(id);
  });
  return extra.length ? [...terms, ...extra] : terms;
}

/** What the rescue candidates need to know of the searched collections' vocabulary. */
function vocabularyOf(targets: readonly CollectionIndex[]): TermVocabulary {
  return {
    unitCount: targets.reduce((n, index) => n + index.lexical.unitCount, 0),
    documentFrequency: (term) => {
      let df = 0;
      for (const index of targets) {
        const id = index.lexical.termId(term);
        if (id !== undefined) df += index.lexical.documentFrequency(id);
      }
      return df;
    },
  };
}

/** A stored document as `get_document` returns it (shared with the database backends). */
export function toDoc(collection: string, doc: IndexableDocument): Doc {
  const out: Doc = {
    collection,
    id: doc.id,
    title: doc.title,
    text: doc.sections.map((s) => (s.heading ? `${s.heading}\n\n${s.content}` : s.content)).join("\n\n"),
    sections: doc.sections.map((s) => {
      const section: DocSection = {
        headingPath: s.headingPath,
        level: s.level ?? Math.max(0, s.headingPath.length - 1),
        content: s.content,
      };
      if (s.heading) section.heading = s.heading;
      if (s.pages) section.pages = s.pages;
      return section;
    }),
  };
  if (doc.url) out.url = doc.url;
  if (doc.modifiedTime) out.modifiedTime = doc.modifiedTime;
  return out;
}
