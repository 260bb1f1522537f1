import path from "node:path";
// A labelled retrieval collection, whatever layout it was read from (SMART, BEIR). Loaders
// normalise to this shape so metrics and benchmarks never care where judgments came from.

export interface EvalDoc {
  id: string;
  title: string;
  /** Body text; indexers combine it with `title`. */
  text: string;
}

export interface EvalQuery {
  id: string;
  text: string;
}

/**
 * queryId -> docId -> graded gain. Only relevant judgments are stored (gain > 0); a pair that
 * is absent is not relevant. Gains are linear: nDCG uses them as they are.
 */
export type Qrels = Map<string, Map<string, number>>;

/** What a loader read and what it left out, so a report can say so instead of hiding it. */
export interface DatasetStats {
  /** Queries in the queries file, before unjudged ones were dropped. */
  queriesRead: number;
  /** Queries without a single relevant judgment: they cannot be found or missed. */
  unjudgedQueriesDropped: number;
  /** Judgment lines kept (gain > 0). */
  relevantJudgments: number;
  /** Judgment lines read and ignored as not relevant (gain <= 0, or grades outside the scale). */
  nonRelevantJudgments: number;
  /** Relevant judgments naming a query that is not in the queries file: ignored. */
  judgmentsForUnknownQueries: number;
  /**
   * Relevant judgments naming a document that is not in the corpus. They are kept, as
   * pytrec_eval keeps them: they still count in recall's and AP's denominators and in nDCG's
   * ideal ranking, so a corpus that lost documents cannot look better than it is.
   */
  judgmentsForUnknownDocs: number;
}

export interface EvalDataset {
  name: string;
  docs: EvalDoc[];
  /** Judged queries only, in file order. */
  queries: EvalQuery[];
  /** One entry per query in `queries`, each with at least one relevant document. */
  qrels: Qrels;
  stats?: DatasetStats;
}

/** A relevant judgment as a loader reads it, before it is checked against queries and docs. */
export interface RelevantJudgment {
  queryId: string;
  docId: string;
  gain: number;
}

/** A judgments file as read: every judged pair, and how many were judged not relevant. */
export interface JudgmentsRead {
  /** Every judged pair; one judged not relevant has a gain of 0. */
  judgments: RelevantJudgment[];
  nonRelevant: number;
}

/**
 * Builds the dataset from everything a loader read: keeps judged queries only (the BEIR
 * convention, "judged queries only") and keeps `qrels` and `queries` consistent with each other.
 * `judgments` may hold the same pair twice; the later one wins, as in BEIR's and
 * pytrec_eval's dictionaries. A later non-relevant line for a pair is passed as gain <= 0 and
 * removes an earlier relevant one.
 */
export function assembleDataset(input: {
  /** The folder read; the dataset is named after it unless `name` is given. */
  dir: string;
  name?: string | undefined;
  docs: EvalDoc[];
  queries: EvalQuery[];
  judged: JudgmentsRead;
}): EvalDataset {
  const queryIds = new Set(input.queries.map((q) => q.id));
  const docIds = new Set(input.docs.map((d) => d.id));
  const qrels: Qrels = new Map();
  let judgmentsForUnknownQueries = 0;
  for (const j of input.judged.judgments) {
    if (!queryIds.has(j.queryId)) {
      if (j.gain > 0) judgmentsForUnknownQueries++;
      continue;
    }
    let perQuery = qrels.get(j.queryId);
    if (j.gain > 0) {
      if (perQuery === undefined) {
        perQuery = new Map();
        qrels.set(j.queryId, perQuery);
      }
      perQuery.set(j.docId, j.gain);
    } else {
      perQuery?.delete(j.docId);
    }
  }
  for (const [queryId, perQuery] of qrels) if (perQuery.size === 0) qrels.delete(queryId);

  let relevantJudgments = 0;
  let judgmentsForUnknownDocs = 0;
  for (const perQuery of qrels.values()) {
    relevantJudgments += perQuery.size;
    for (const docId of perQuery.keys()) if (!docIds.has(docId)) judgmentsForUnknownDocs++;
  }
  const queries = input.queries.filter((q) => qrels.has(q.id));
  return {
    name: input.name ?? path.basename(path.resolve(input.dir)),
    docs: input.docs,
    queries,
    qrels,
    stats: {
      queriesRead: input.queries.length,
      unjudgedQueriesDropped: input.queries.length - queries.length,
      relevantJudgments,
      nonRelevantJudgments: input.judged.nonRelevant,
      judgmentsForUnknownQueries,
      judgmentsForUnknownDocs,
    },
  };
}
