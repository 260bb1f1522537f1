// The contract between the parts (docs/design.md §2). Names are the contract; fields may be added.

/** The knowledge tools' names, as Huginn's adapter names them (a model prompted for Huginn works unchanged). */
export const SEARCH_KNOWLEDGE_TOOL = "search_knowledge";
export const GET_DOCUMENT_TOOL = "get_document";
export const LIST_COLLECTIONS_TOOL = "list_collections";

export type Band = "high" | "medium" | "low";

export interface SearchRequest {
  query: string;
  /** Collections to search; omitted means every collection the backend may search. */
  collections?: string[];
  /** Maximum number of hits returned (default 10). */
  limit?: number;
  /** Brief mode: one snippet per hit instead of matched chunks. */
  brief?: boolean;
  /** Hits below this calibrated relevance are dropped (after `bestScore` is taken). */
  minRelevance?: number;
  /** Run the second, more careful scoring pass over the top candidates. */
  rerank?: boolean;
}

export interface AnswerSpan {
  /** Verbatim quote from the document. */
  text: string;
  /** Offsets in JavaScript string units (UTF-16) into the section content. */
  start: number;
  end: number;
}

export interface Chunk {
  heading?: string;
  content: string;
}

export interface Hit {
  collection: string;
  id: string;
  title: string;
  url?: string;
  heading?: string;
  breadcrumb?: string;
  snippet?: string;
  chunks?: Chunk[];
  /** Calibrated 0..1 estimate that the hit is relevant. */
  relevance: number;
  band: Band;
  modifiedTime?: string;
  pages?: { start: number; end: number };
  /**
   * The id in its page at which the hit's section starts (an HTML heading's): its link opens
   * there (src/knowledge/document-links.ts).
   */
  anchor?: string;
  quote?: AnswerSpan;
  /** Free-form metadata shown as `*k: v | …*` (Huginn's visible metadata). */
  metadata?: Record<string, string>;
  /** Huginn's `graph_context`: knowledge-graph facts about this hit, rendered as `*a | b*`. */
  graphContext?: string[];
}

export interface RetryHints {
  broaderQuery?: string;
  broaderQueryStrategy?: string;
  narrowerQuery?: string;
  narrowerQueryStrategy?: string;
  relatedTerms?: string[];
  /**
   * Several re-query candidates derived from the index (the corrective pass runs and fuses them
   * all); the broader query above is the first of them when the engine produced it.
   */
  rescueQueries?: RescueQuery[];
  /** The query's content words that occur in no document the search could reach. */
  unmatchedTerms?: string[];
  /**
   * The share (0..1) of the query's content-word weight each of `unmatchedTerms` carries: high
   * when the absent word is the question's subject, low when it is one aside among many.
   */
  unmatchedShare?: number;
}

/** One lexical re-query candidate and how it was derived (`drop_unmatched`, …). */
export interface RescueQuery {
  query: string;
  strategy: string;
  /** The share (0..1) of the query's content-word weight the candidate keeps, when the index knows it. */
  keptShare?: number;
}

export interface SearchResponse {
  query: string;
  results: Hit[];
  /** Relevance of the top hit before `minRelevance` filtering (0 when empty). */
  bestScore: number;
  reranked: boolean;
  noConfidentResults?: true;
  retryHints?: RetryHints;
  /** Huginn's response-wide flag: some collection's candidates were all noise. */
  lowConfidence?: true;
  /** Huginn's `graph_answer`: a direct answer from its knowledge graph, rendered before the hits. */
  graphAnswer?: string;
  /** Huginn's server-side rescue (its `corrective` block), present only when a rescue ran. */
  rescue?: ServerRescue;
  /** The query's words against the documents, where the backend can tell (the ranking core does). */
  queryCoverage?: QueryCoverage;
}

/**
 * How the query's words meet the documents, as the ranking read them: what `auto` weighs, beside
 * the hits' relevance, when it decides whether to ask the model (corrective/auto-ask-rule.ts).
 * Both are shares of the query's term weight (idf × count in the query), 0..1.
 */
export interface QueryCoverage {
  /** Of the query's three heaviest (rarest) terms, the share the top hit's document holds. */
  keyTermsInTopHit: number;
  /** The share of terms no document of the top hit's collection holds. */
  unmatchedShare: number;
  /**
   * How many of the query's words are function words (stopwords) of the top hit's collection's
   * language and not of English's: evidence the query is written in that language (weakness.ts
   * mayBeInAnotherLanguage). 0 over an English collection.
   */
  ownFunctionWords?: number;
}

/** A re-search the backend itself ran before answering (Huginn's `corrective=auto`). */
export interface ServerRescue {
  verdict: "rescued" | "still_weak";
  /** The original query first, the rescue query last. */
  queriesTried: string[];
  /** How the rescue query was derived (`drop_last_word`, `conjunction_split`, …). */
  strategy?: string;
}

/** A whole document as `get_document` returns it. */
export interface Doc {
  collection: string;
  id: string;
  title: string;
  url?: string;
  modifiedTime?: string;
  text: string;
  sections?: DocSection[];
}

/** One node of a document's section tree, flattened in reading order. */
export interface DocSection {
  /** Headings from the document root down to this section. */
  headingPath: string[];
  heading?: string;
  /** Depth in the heading tree (0 for text before the first heading). */
  level: number;
  content: string;
  pages?: { start: number; end: number };
  /** The id of the section's heading in its page (HTML), which a link to the page opens at. */
  anchor?: string;
}

/**
 * The language of a collection's documents, as the model and the corrective pass are told it:
 * the supported language tags its documents are analysed in (most documents first; empty when
 * unknown, e.g. a Huginn collection or an "auto" collection not yet indexed) and its name.
 */
export interface CollectionLanguage {
  tags: string[];
  /** "English", "German and English", or what is known ("detected per document"). */
  name: string;
}

export interface KnowledgeBackend {
  search(request: SearchRequest, options?: { signal?: AbortSignal }): Promise<SearchResponse>;
  collections(): string[];
  getDocument?(collection: string, id: string): Promise<Doc | undefined>;
  /**
   * A collection's documents per language they were analysed in, as the backend last read them
   * (what an "auto" collection is named to the model by); undefined when it does not know.
   */
  documentLanguages?(collection: string): ReadonlyMap<string, number> | undefined;
}

export type Verdict = "correct" | "ambiguous" | "insufficient";

export interface Grade {
  verdict: Verdict;
  reason: string;
  rewrittenQuery?: string;
  suggestedCollection?: string;
  /** Further re-queries in the documents' vocabulary (a model grader; at most 3). */
  alternativeQueries?: string[];
  /** A short passage answering the question as the documents might, used as query expansion. */
  hypotheticalAnswer?: string;
}

export type GraderMode = "signal" | "haiku";

export interface CorrectiveMetadata {
  graderMode: GraderMode;
  verdicts: Verdict[];
  reasons: string[];
  queriesTried: string[];
  collectionsTried: string[][];
  retries: number;
  finalVerdict: Verdict;
  graderMs: number;
  requeryMs: number[];
  newHits: number[];
  /**
   * Set when the pass told the model the documents do not appear to cover the question:
   * the query words no document contains (possibly none, when the grader or the rescue said so).
   */
  notCovered?: { terms: string[]; reason: string };
  /**
   * Set when the pass told the model the re-queries found nothing better, with no evidence that
   * the documents lack the subject (no model judged so, no query word is missing from them all).
   */
  noBetterMatch?: { reason: string };
  /** Set when the query was in another language than the documents it searched (tags). */
  languageMismatch?: { query: string; documents: string[] };
}

export interface CorrectiveOutcome {
  changed: boolean;
  text: string;
  metadata: CorrectiveMetadata;
  /** The hits the pass appended to the text, in the order shown; absent when it appended none. */
  added?: Hit[];
}
