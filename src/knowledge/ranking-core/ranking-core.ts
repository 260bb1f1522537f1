import { UnknownCollectionError } from "../../errors.js";
import { type NormalizedSearchRequest, normalizeSearchRequest } from "../../search-request.js";
import type { Doc, DocSection, Hit, SearchRequest, SearchResponse } from "../../types.js";
import type { Analyzer } from "../analysis/analyzer.js";
import { defaultAnalyzer } from "../analysis/registry.js";
import { bodyBudgetAt, withinBudget } from "../context-budget.js";
import { feedbackHints } from "../hints/feedback-hints.js";
import { rescueCandidates, type TermVocabulary } from "../hints/rescue-candidates.js";
import { retryHints } from "../hints/retry-hints.js";
import type { CollectionIndex, IndexableDocument } from "../index/collection-index.js";
import { type CollectionRanking, rankCollection } from "../index/ranker.js";
import {
  bandFor,
  type CalibrationModel,
  DEFAULT_CALIBRATION,
  isWeak,
  relevanceAndBand,
  relevanceShift,
} from "../relevance.js";
import { relevanceFeatures } from "../relevance-features.js";
import { snippetFor } from "../snippet.js";
import { queryCoverage } from "./query-coverage.js";
import { queryTermPlan } from "./query-terms.js";
import { heldFormOf, wholeWordTerms, withHeldForms } from "./unseen-forms.js";

interface CollectionHit {
  hit: Hit;
  ranking: CollectionRanking;
  index: CollectionIndex;
  /** The hit's document in its collection index. */
  document: number;
}

/**
 * The ranking core: a search over a set of collection indexes — BM25F with proximity over
 * document sections, an optional pseudo-relevance-feedback rerank pass, calibrated relevance and
 * the weak-result signal with retry hints. Both engines answer through it: the embedded engine
 * (src/backends/embedded/embedded-engine.ts) over its whole in-memory collections, the PostgreSQL backend over
 * the candidate sections it read for one request, built with the collections' statistics.
 * Ranking is synchronous and bounded (milliseconds).
 */
export class RankingCore {
  protected readonly indexes: Map<string, CollectionIndex>;
  private calibration: CalibrationModel = DEFAULT_CALIBRATION;

  constructor(indexes: readonly CollectionIndex[], options: { calibration?: CalibrationModel } = {}) {
    this.indexes = new Map(indexes.map((i) => [i.name, i]));
    if (options.calibration) this.calibration = options.calibration;
  }

  /** The relevance calibration applied (a bot's own fit, or the shipped one). */
  get calibrationModel(): CalibrationModel {
    return this.calibration;
  }

  /** Replace the relevance calibration (a bot's own fit from `second-look calibrate`). */
  useCalibration(model: CalibrationModel): void {
    this.calibration = model;
  }

  collections(): string[] {
    return [...this.indexes.keys()];
  }

  collectionIndex(name: string): CollectionIndex | undefined {
    return this.indexes.get(name);
  }

  /** A collection's documents per language they were analysed in (KnowledgeBackend.documentLanguages). */
  documentLanguages(collection: string): ReadonlyMap<string, number> | undefined {
    return this.indexes.get(collection)?.languages;
  }

  /** A request as the caller wrote it: normalised here (search-request.ts), then ranked. */
  searchSync(request: SearchRequest): SearchResponse {
    return this.rank(normalizeSearchRequest(request));
  }

  /** Ranks a normalised request over the collections it names (every collection when none). */
  rank(request: NormalizedSearchRequest): SearchResponse {
    const { query, limit, brief, rerank } = request;
    const targets = this.resolveCollections(request.collections);

    const found: CollectionHit[] = [];
    let reranked = targets.length > 0;
    for (const index of targets) {
      // Each collection analyses the query in its own language(s), compounds met through its vocabulary.
      const analyzer = index.queryAnalyzerFor(query);
      const terms = queryTermsFor(query, index, analyzer);
      const queryTerms = new Set(terms);
      const ranking = rankCollection(index, terms, { rerank, limit });
      reranked &&= ranking.reranked;
      const features = relevanceFeatures(ranking);
      const shift = relevanceShift(this.calibration, analyzer.language);
      let ceiling = 1;
      for (const [position, ranked] of ranking.documents.entries()) {
        const hit = toHit(index, ranked, { terms: queryTerms, analyzer }, brief);
        Object.assign(hit, relevanceAndBand(features[position]!, this.calibration, shift));
        // A collection's ranking is the better judge of order than one feature: relevance is
        // kept non-increasing along it, so merging collections by relevance never reorders one.
        if (hit.relevance > ceiling) Object.assign(hit, { relevance: ceiling, band: bandFor(ceiling) });
        ceiling = hit.relevance;
        found.push({ hit, ranking, index, document: ranked.document });
      }
    }
    // Stable sort: equal relevance keeps each collection's order.
    found.sort((a, b) => b.hit.relevance - a.hit.relevance);
    const top = found.slice(0, limit);
    const bestScore = top[0]?.hit.relevance ?? 0;
    const { minRelevance } = request;
    const results = top
      .map((f) => f.hit)
      .filter((h) => minRelevance === undefined || h.relevance >= minRelevance)
      // Full mode spends the body text on the leading hits (context-budget.ts).
      .map((h, rank) => (brief ? h : withinBudget(h, bodyBudgetAt(rank))));

    const response: SearchResponse = { query, results, bestScore, reranked };
    if (!results.length) response.noConfidentResults = true;
    const lead = top[0];
    const coverage = lead && queryCoverage(lead.index, query, lead.ranking.stats, lead.document);
    if (coverage) response.queryCoverage = coverage;
    if (isWeak(response)) {
      const feedback = feedbackFor(top, query);
      // The hints speak the language of the collection whose hits lead (else the first searched).
      const analyzer = (top[0]?.index ?? targets[0])?.analyzer ?? defaultAnalyzer();
      const plan = rescueCandidates(
        query,
        vocabularyOf(targets, analyzer, query),
        analyzer,
        feedback.relatedTerms,
      );
      const hints = retryHints(query, feedback, analyzer, plan);
      if (hints) response.retryHints = hints;
    }
    return response;
  }

  protected resolveCollections(requested: readonly string[] | undefined): CollectionIndex[] {
    if (!requested?.length) return [...this.indexes.values()];
    const out: CollectionIndex[] = [];
    for (const name of new Set(requested)) {
      const index = this.indexes.get(name);
      if (!index) throw new UnknownCollectionError(name, this.collections());
      out.push(index);
    }
    return out;
  }
}

/** Hints come from the collection whose hits lead: its vocabulary is the query's topic. */
function feedbackFor(top: readonly CollectionHit[], query: string) {
  const lead = top[0];
  if (!lead) return {};
  // The sections the relevance model read: its terms' surface forms are found where it found them.
  const texts = lead.ranking.feedbackUnits.map((unit) => {
    const doc = lead.index.documents[lead.index.unitDocument[unit]!]!;
    return doc.sections[lead.index.unitSection[unit]!]!.content;
  });
  return feedbackHints(query, lead.ranking.feedback, texts, lead.index.analyzer);
}

function toHit(
  index: CollectionIndex,
  ranked: CollectionRanking["documents"][number],
  query: { terms: ReadonlySet<string>; analyzer: Analyzer },
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
  if (best.anchor !== undefined) hit.anchor = best.anchor;
  if (brief) {
    // The snippet's words are matched to the query's terms by the analyzer that made them.
    hit.snippet = snippetFor(best.content, query.terms, query.analyzer);
  } else {
    hit.chunks = sections.map((s) =>
      s.heading ? { heading: s.heading, content: s.content } : { content: s.content },
    );
  }
  return hit;
}

/**
 * The query's terms in a collection: its analysis, plus compound parts and joins the collection
 * holds; in a prefix-stemmed language, a word the stem left whole in a form no section holds as
 * the form it does (unseen-forms.ts).
 */
export function queryTermsFor(
  query: string,
  index: CollectionIndex,
  analyzer: Analyzer = index.queryAnalyzerFor(query),
): string[] {
  const { lexical } = index;
  const terms = queryTermPlan(query, analyzer).terms((term) => {
    const id = lexical.termId(term);
    return id === undefined ? 0 : lexical.documentFrequency(id);
  });
  return withHeldForms(query, terms, lexical, analyzer);
}

/**
 * What the rescue candidates need to know of the searched collections' vocabulary. A word the
 * ranking searched by its held form (unseen-forms.ts) counts as that form: it is not absent, so
 * it neither joins the unmatched words nor makes the corrective pass say "not covered".
 */
function vocabularyOf(
  targets: readonly CollectionIndex[],
  analyzer: Analyzer,
  query: string,
): TermVocabulary {
  const whole = wholeWordTerms(query, analyzer);
  return {
    unitCount: targets.reduce((n, index) => n + index.lexical.unitCount, 0),
    documentFrequency: (term) => {
      let df = 0;
      for (const { lexical } of targets) {
        const held = whole.has(term) ? heldFormOf(lexical, analyzer, term) : undefined;
        const id = lexical.termId(held ?? term);
        if (id !== undefined) df += lexical.documentFrequency(id);
      }
      return df;
    },
  };
}

/** A stored document as `get_document` returns it (every backend that stores documents). */
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
