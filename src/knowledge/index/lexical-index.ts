import { type Bm25Params, DEFAULT_BM25, idf, saturate } from "./bm25.js";

/**
 * A field's terms as ids into a vocabulary that many fields share (the stored index's form: it
 * loads as typed-array views of the file, with no string per term to make or look up).
 */
export interface TermIds {
  readonly vocabulary: readonly string[];
  readonly ids: Uint32Array;
}

/**
 * A field's analysed terms in order: an array, the terms joined by single spaces (what a parser
 * thread hands back — one string per field costs a fraction of an array of short strings; terms
 * never hold a space, and "" is no terms), or ids into a shared vocabulary (a stored index).
 */
export type TermSequence = readonly string[] | string | TermIds;

/** One searchable unit (a document section) as analysed terms, in order. */
export interface UnitTerms {
  title: TermSequence;
  body: TermSequence;
}

export interface ScoredUnit {
  unit: number;
  score: number;
}

/** Per query term: what the index knows about it. */
export interface QueryTermStats {
  term: string;
  termId: number;
  /** How often the term appears in the query (repeats weigh more, as in BM25's qtf). */
  queryFrequency: number;
  documentFrequency: number;
  idf: number;
}

const NOT_FOUND = -1;

/**
 * Statistics of the whole collection, for an index built over only part of it (a database
 * backend's candidate sections): idf and length normalisation then describe the collection, so
 * a unit scores exactly as it would in an index of every unit.
 */
export interface CollectionStatistics {
  unitCount: number;
  avgTitleLength: number;
  avgBodyLength: number;
  /** Units of the whole collection containing the term (0 when unknown). */
  documentFrequency: (term: string) => number;
  /** Documents in the whole collection (pages, each of one or more units). */
  documentCount?: number;
  /**
   * The indexed form a query term no section holds is searched as, looked up over the whole
   * vocabulary by the backend that read the candidates (ranking-core/unseen-forms.ts).
   */
  heldForm?: (term: string) => string | undefined;
}

/**
 * The arrays an index without collection statistics is made of: what a stored segment keeps
 * (segment-codec.ts), so a load builds no index. Term ids are positions in `terms`.
 */
export interface LexicalImage {
  terms: readonly string[];
  titleLengths: Uint32Array;
  bodyLengths: Uint32Array;
  /** Every unit's title term ids then body term ids, unit after unit. */
  streams: Uint32Array;
  /** Where each term's postings start (one more entry than terms). */
  offsets: Uint32Array;
  postingUnits: Uint32Array;
  postingTitleTf: Uint16Array;
  postingBodyTf: Uint16Array;
}

/**
 * An immutable BM25F index over units. Postings are flat typed arrays (unit id, title tf,
 * body tf) addressed by per-term offsets; each unit also keeps its term-id stream, which is the
 * positional forward index used by proximity features and pseudo-relevance feedback.
 *
 * Term strings are held once, in the vocabulary: every stream is term ids in one flat typed
 * array (a unit's title ids, then its body ids), so the index costs 4 bytes per token outside
 * the JS heap whatever the corpus size, instead of a string pointer and an object per token.
 */
export class LexicalIndex {
  /** Units in the collection (more than this index holds when built over a part of it). */
  readonly unitCount: number;
  readonly params: Bm25Params;
  private readonly termIds: Map<string, number>;
  private readonly terms: string[];
  private readonly offsets: Uint32Array;
  private readonly postingUnits: Uint32Array;
  private readonly postingTitleTf: Uint16Array;
  private readonly postingBodyTf: Uint16Array;
  private readonly titleLengths: Uint32Array;
  private readonly bodyLengths: Uint32Array;
  private readonly avgTitleLength: number;
  private readonly avgBodyLength: number;
  /** Every unit's title term ids then body term ids, unit after unit. */
  private readonly streams: Uint32Array;
  /** Where each unit's ids start in `streams`. */
  private readonly unitStart: Float64Array;
  /** Collection-wide document frequency per term id, when built with collection statistics. */
  private readonly collectionDf: Uint32Array | undefined;
  /** Scratch accumulator reused across queries (the index is searched synchronously). */
  private readonly accumulator: Float64Array;

  private constructor(
    units: readonly UnitTerms[],
    params: Bm25Params,
    private readonly statistics?: CollectionStatistics,
  ) {
    this.params = params;
    this.termIds = new Map();
    this.terms = [];
    this.titleLengths = new Uint32Array(units.length);
    this.bodyLengths = new Uint32Array(units.length);
    this.unitStart = new Float64Array(units.length + 1);

    // Pass 0: stream lengths, so every stream fits in one array allocated once.
    let titleTotal = 0;
    let bodyTotal = 0;
    for (let u = 0; u < units.length; u++) {
      const unit = units[u]!;
      const titleLength = lengthOf(unit.title);
      const bodyLength = lengthOf(unit.body);
      this.titleLengths[u] = titleLength;
      this.bodyLengths[u] = bodyLength;
      titleTotal += titleLength;
      bodyTotal += bodyLength;
      this.unitStart[u + 1] = this.unitStart[u]! + titleLength + bodyLength;
    }
    this.streams = new Uint32Array(titleTotal + bodyTotal);

    // Pass 1: term ids, streams, document frequencies.
    const df: number[] = [];
    const seenInUnit: number[] = [];
    // Per shared vocabulary, its ids as this index's (-1: not met yet), so each term string is
    // looked up once per vocabulary, not once per occurrence.
    const remaps = new Map<readonly string[], Int32Array>();
    for (let u = 0; u < units.length; u++) {
      const unit = units[u]!;
      const start = this.unitStart[u]!;
      const end = this.unitStart[u + 1]!;
      this.intern(unit.title, start, df, remaps);
      this.intern(unit.body, start + this.titleLengths[u]!, df, remaps);
      for (let i = start; i < end; i++) {
        const t = this.streams[i]!;
        if (seenInUnit[t] !== u) {
          seenInUnit[t] = u;
          df[t] = (df[t] ?? 0) + 1;
        }
      }
    }
    this.avgTitleLength = statistics?.avgTitleLength ?? (units.length ? titleTotal / units.length : 0);
    this.avgBodyLength = statistics?.avgBodyLength ?? (units.length ? bodyTotal / units.length : 0);
    // Never below what this index itself holds: stale statistics must not make idf undefined.
    this.unitCount = Math.max(statistics?.unitCount ?? 0, units.length);
    this.collectionDf = statistics
      ? Uint32Array.from(this.terms, (term, t) => Math.max(statistics.documentFrequency(term), df[t]!))
      : undefined;

    // Pass 2: flat postings, in unit order per term.
    const termCount = this.terms.length;
    this.offsets = new Uint32Array(termCount + 1);
    for (let t = 0; t < termCount; t++) this.offsets[t + 1] = this.offsets[t]! + df[t]!;
    const total = this.offsets[termCount]!;
    this.postingUnits = new Uint32Array(total);
    this.postingTitleTf = new Uint16Array(total);
    this.postingBodyTf = new Uint16Array(total);
    const cursor = this.offsets.slice(0, termCount);
    const lastUnit = new Int32Array(termCount).fill(NOT_FOUND);
    for (let u = 0; u < units.length; u++) {
      this.fill(u, this.titleStream(u), cursor, lastUnit, this.postingTitleTf);
      this.fill(u, this.bodyStream(u), cursor, lastUnit, this.postingBodyTf);
    }
    this.accumulator = new Float64Array(units.length);
  }

  static build(
    units: readonly UnitTerms[],
    params: Bm25Params = DEFAULT_BM25,
    statistics?: CollectionStatistics,
  ): LexicalIndex {
    return new LexicalIndex(units, params, statistics);
  }

  /**
   * The index an image describes (see `image`), without building anything but the term lookup.
   * Its arrays are copied, so the bytes they were read from are not kept alive by the index.
   */
  static fromImage(image: LexicalImage, params: Bm25Params = DEFAULT_BM25): LexicalIndex {
    const units = image.titleLengths.length;
    const unitStart = new Float64Array(units + 1);
    let titleTotal = 0;
    let bodyTotal = 0;
    for (let u = 0; u < units; u++) {
      titleTotal += image.titleLengths[u]!;
      bodyTotal += image.bodyLengths[u]!;
      unitStart[u + 1] = unitStart[u]! + image.titleLengths[u]! + image.bodyLengths[u]!;
    }
    const termIds = new Map<string, number>();
    for (let t = 0; t < image.terms.length; t++) termIds.set(image.terms[t]!, t);
    const index: LexicalIndex = Object.create(LexicalIndex.prototype);
    return Object.assign(index, {
      params,
      termIds,
      terms: image.terms,
      offsets: image.offsets.slice(),
      postingUnits: image.postingUnits.slice(),
      postingTitleTf: image.postingTitleTf.slice(),
      postingBodyTf: image.postingBodyTf.slice(),
      titleLengths: image.titleLengths.slice(),
      bodyLengths: image.bodyLengths.slice(),
      avgTitleLength: units ? titleTotal / units : 0,
      avgBodyLength: units ? bodyTotal / units : 0,
      streams: image.streams.slice(),
      unitStart,
      collectionDf: undefined,
      statistics: undefined,
      unitCount: units,
      accumulator: new Float64Array(units),
    });
  }

  /** The arrays this index is made of, for storing; undefined for one built with collection statistics. */
  image(): LexicalImage | undefined {
    if (this.statistics) return undefined;
    return {
      terms: this.terms,
      titleLengths: this.titleLengths,
      bodyLengths: this.bodyLengths,
      streams: this.streams,
      offsets: this.offsets,
      postingUnits: this.postingUnits,
      postingTitleTf: this.postingTitleTf,
      postingBodyTf: this.postingBodyTf,
    };
  }

  /**
   * This index with its collection-wide document frequencies read again from its statistics
   * (whose `documentFrequency` now knows more terms), sharing every other array: what a
   * database backend needs after fetching the frequencies of terms it first saw in the
   * candidates, without building the index again. An index built without statistics is
   * returned as it is.
   */
  restated(): LexicalIndex {
    const statistics = this.statistics;
    if (!statistics) return this;
    const copy: LexicalIndex = Object.create(LexicalIndex.prototype);
    Object.assign(copy, this, {
      collectionDf: Uint32Array.from(this.terms, (term, t) =>
        Math.max(statistics.documentFrequency(term), this.offsets[t + 1]! - this.offsets[t]!),
      ),
      accumulator: new Float64Array(this.accumulator.length),
    });
    return copy;
  }

  /**
   * This index scoring with other BM25F parameters (postings and streams shared): for comparing
   * parameter settings over one build (bench/ranking-params.bench.ts).
   */
  withParams(params: Bm25Params): LexicalIndex {
    const copy: LexicalIndex = Object.create(LexicalIndex.prototype);
    Object.assign(copy, this, { params, accumulator: new Float64Array(this.accumulator.length) });
    return copy;
  }

  /** This index's id of `term`, added to the vocabulary when new. */
  private idOf(term: string, df: number[]): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.termIds.set(term, id);
      this.terms.push(term);
      df.push(0);
    }
    return id;
  }

  /** Writes the ids of `terms` into `streams` from `at`, adding new terms to the vocabulary. */
  private intern(
    terms: TermSequence,
    at: number,
    df: number[],
    remaps: Map<readonly string[], Int32Array>,
  ): void {
    let position = at;
    const put = (term: string) => {
      this.streams[position++] = this.idOf(term, df);
    };
    if (isTermIds(terms)) {
      const { vocabulary, ids } = terms;
      let remap = remaps.get(vocabulary);
      if (!remap) {
        remap = new Int32Array(vocabulary.length).fill(NOT_FOUND);
        remaps.set(vocabulary, remap);
      }
      for (let i = 0; i < ids.length; i++) {
        const local = ids[i]!;
        let id = remap[local]!;
        if (id === NOT_FOUND) {
          id = this.idOf(vocabulary[local]!, df);
          remap[local] = id;
        }
        this.streams[position++] = id;
      }
      return;
    }
    if (typeof terms !== "string") {
      for (const term of terms) put(term);
      return;
    }
    if (terms === "") return;
    let start = 0;
    for (let space = terms.indexOf(" "); space !== -1; space = terms.indexOf(" ", start)) {
      put(terms.slice(start, space));
      start = space + 1;
    }
    put(terms.slice(start));
  }

  private fill(
    unit: number,
    stream: Uint32Array,
    cursor: Uint32Array,
    lastUnit: Int32Array,
    tf: Uint16Array,
  ) {
    for (let i = 0; i < stream.length; i++) {
      const t = stream[i]!;
      let slot: number;
      if (lastUnit[t] === unit) {
        slot = cursor[t]! - 1;
      } else {
        lastUnit[t] = unit;
        slot = cursor[t]!;
        cursor[t] = slot + 1;
        this.postingUnits[slot] = unit;
      }
      if (tf[slot]! < 0xffff) tf[slot]! += 1;
    }
  }

  /**
   * Whether the index holds its collection's whole vocabulary: not one built over some candidate
   * sections with the collection's statistics, which lacks the terms no candidate holds.
   */
  get holdsWholeVocabulary(): boolean {
    return this.statistics === undefined;
  }

  /** The held form the statistics' backend looked up for `term` (an index over candidates only). */
  statedHeldForm(term: string): string | undefined {
    return this.statistics?.heldForm?.(term);
  }

  get vocabularySize(): number {
    return this.terms.length;
  }

  termId(term: string): number | undefined {
    return this.termIds.get(term);
  }

  term(termId: number): string {
    return this.terms[termId]!;
  }

  documentFrequency(termId: number): number {
    return this.collectionDf?.[termId] ?? this.offsets[termId + 1]! - this.offsets[termId]!;
  }

  idf(termId: number): number {
    return idf(this.unitCount, this.documentFrequency(termId));
  }

  /** The unit's title term ids in order (a view: never written to). */
  titleStream(unit: number): Uint32Array {
    const start = this.unitStart[unit]!;
    return this.streams.subarray(start, start + this.titleLengths[unit]!);
  }

  /** The unit's body term ids in order (a view: never written to). */
  bodyStream(unit: number): Uint32Array {
    const start = this.unitStart[unit]! + this.titleLengths[unit]!;
    return this.streams.subarray(start, start + this.bodyLengths[unit]!);
  }

  /**
   * Query terms with their statistics. A term the index has never seen keeps df 0 and the
   * largest idf there is: it scores nothing, but it counts in what the query could score, so a
   * hit that matches one word of four is not mistaken for a full match.
   */
  queryStats(queryTerms: readonly string[]): QueryTermStats[] {
    const byTerm = new Map<string, QueryTermStats>();
    for (const term of queryTerms) {
      const existing = byTerm.get(term);
      if (existing) {
        existing.queryFrequency++;
        continue;
      }
      const termId = this.termIds.get(term) ?? NOT_FOUND;
      const documentFrequency =
        termId === NOT_FOUND
          ? (this.statistics?.documentFrequency(term) ?? 0)
          : this.documentFrequency(termId);
      byTerm.set(term, {
        term,
        termId,
        queryFrequency: 1,
        documentFrequency,
        idf: idf(this.unitCount, documentFrequency),
      });
    }
    return [...byTerm.values()];
  }

  /**
   * BM25F of pages — each a run of consecutive units (a document's sections) read as one text:
   * body frequencies and lengths summed over the units, the title field being the first unit's
   * (the document title and its heading path), body length normalised by the average page's
   * (`avgPageBodyLength`). Idf is the units' own, so a page score needs no statistics beyond those
   * a section score uses. Read from the query terms' postings, so the cost is the postings', not
   * the pages' length.
   */
  scorePages(
    stats: readonly QueryTermStats[],
    pages: readonly (readonly [firstUnit: number, endUnit: number])[],
    avgPageBodyLength: number,
  ): number[] {
    const p = this.params;
    const terms = stats.length;
    const titleTf = new Float64Array(pages.length * terms);
    const bodyTf = new Float64Array(pages.length * terms);
    stats.forEach((s, i) => {
      if (s.termId === NOT_FOUND) return;
      const stop = this.offsets[s.termId + 1]!;
      // A term's postings are in unit order and a page is a run of units: each page's postings
      // are found by a binary search, not by walking the term's whole posting list.
      pages.forEach(([first, end], slot) => {
        for (let k = this.firstPostingAtOrAfter(this.offsets[s.termId]!, stop, first); k < stop; k++) {
          const unit = this.postingUnits[k]!;
          if (unit >= end) break;
          bodyTf[slot * terms + i]! += this.postingBodyTf[k]!;
          if (unit === first) titleTf[slot * terms + i] = this.postingTitleTf[k]!;
        }
      });
    });
    return pages.map(([first, end], slot) => {
      let bodyLength = 0;
      for (let u = first; u < end; u++) bodyLength += this.bodyLengths[u]!;
      const titleNorm = 1 - p.bTitle + (p.bTitle * this.titleLengths[first]!) / (this.avgTitleLength || 1);
      const bodyNorm = 1 - p.bBody + (p.bBody * bodyLength) / (avgPageBodyLength || 1);
      let score = 0;
      stats.forEach((s, i) => {
        const title = titleTf[slot * terms + i]!;
        const body = bodyTf[slot * terms + i]!;
        if (title + body === 0) return;
        const pseudo = (p.titleWeight * title) / titleNorm + body / bodyNorm;
        score += s.idf * s.queryFrequency * saturate(pseudo, p.k1);
      });
      return score;
    });
  }

  /** The first posting in [from, to) of one term whose unit is at least `unit` (postings are in unit order). */
  private firstPostingAtOrAfter(from: number, to: number, unit: number): number {
    let lo = from;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.postingUnits[mid]! < unit) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Average body length of a unit (of the collection, when built with its statistics). */
  get averageBodyLength(): number {
    return this.avgBodyLength;
  }

  /** The BM25F pseudo-frequency of one posting. */
  private pseudoFrequency(unit: number, titleTf: number, bodyTf: number): number {
    const p = this.params;
    let value = 0;
    if (titleTf > 0) {
      const norm = 1 - p.bTitle + (p.bTitle * this.titleLengths[unit]!) / (this.avgTitleLength || 1);
      value += (p.titleWeight * titleTf) / norm;
    }
    if (bodyTf > 0) {
      const norm = 1 - p.bBody + (p.bBody * this.bodyLengths[unit]!) / (this.avgBodyLength || 1);
      value += bodyTf / norm;
    }
    return value;
  }

  /**
   * Term-at-a-time BM25F over the query (OR semantics), top `limit` units by score.
   * `allowed` restricts scoring to a subset of units (e.g. one collection's).
   */
  search(stats: readonly QueryTermStats[], limit: number, allowed?: (unit: number) => boolean): ScoredUnit[] {
    const acc = this.accumulator;
    const touched: number[] = [];
    const k1 = this.params.k1;
    for (const s of stats) {
      if (s.termId === NOT_FOUND) continue;
      const weight = s.idf * s.queryFrequency;
      const end = this.offsets[s.termId + 1]!;
      for (let i = this.offsets[s.termId]!; i < end; i++) {
        const unit = this.postingUnits[i]!;
        const contribution =
          weight * saturate(this.pseudoFrequency(unit, this.postingTitleTf[i]!, this.postingBodyTf[i]!), k1);
        if (acc[unit] === 0) touched.push(unit);
        acc[unit]! += contribution;
      }
    }
    const top = selectTop(touched, acc, limit, allowed);
    for (const unit of touched) acc[unit] = 0;
    return top;
  }

  /** BM25F score of one unit for the query (a forward-index scan, for a handful of units). */
  scoreUnit(stats: readonly QueryTermStats[], unit: number): number {
    let score = 0;
    for (const s of stats) {
      let titleTf = 0;
      let bodyTf = 0;
      if (s.termId !== NOT_FOUND) {
        for (const t of this.titleStream(unit)) if (t === s.termId) titleTf++;
        for (const t of this.bodyStream(unit)) if (t === s.termId) bodyTf++;
      }
      if (titleTf + bodyTf > 0) {
        score +=
          s.idf * s.queryFrequency * saturate(this.pseudoFrequency(unit, titleTf, bodyTf), this.params.k1);
      }
    }
    return score;
  }
}

/** Whether a sequence is the id form (a stored index's). */
export function isTermIds(terms: TermSequence): terms is TermIds {
  return typeof terms === "object" && !Array.isArray(terms);
}

/** How many terms a sequence holds (a joined one: one more than its spaces). */
function lengthOf(terms: TermSequence): number {
  if (isTermIds(terms)) return terms.ids.length;
  if (typeof terms !== "string") return terms.length;
  if (terms === "") return 0;
  let count = 1;
  for (let space = terms.indexOf(" "); space !== -1; space = terms.indexOf(" ", space + 1)) count++;
  return count;
}

/** Top `limit` of `candidates` by score (descending; ties by unit id for determinism). */
function selectTop(
  candidates: readonly number[],
  scores: Float64Array,
  limit: number,
  allowed?: (unit: number) => boolean,
): ScoredUnit[] {
  if (limit <= 0) return [];
  // A bounded min-heap keeps selection O(n log k) however many units matched.
  const heap: ScoredUnit[] = [];
  const worse = (a: ScoredUnit, b: ScoredUnit) => ranksBelow(a.score, a.unit, b.score, b.unit);
  for (const unit of candidates) {
    if (allowed && !allowed(unit)) continue;
    const score = scores[unit]!;
    if (heap.length < limit) {
      heap.push({ unit, score });
      siftUp(heap, heap.length - 1, worse);
      continue;
    }
    // Compared before an entry is made of it: most candidates lose here, with nothing allocated.
    const least = heap[0]!;
    if (ranksBelow(least.score, least.unit, score, unit)) {
      heap[0] = { unit, score };
      siftDown(heap, 0, worse);
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}

/** Whether (scoreA, unitA) ranks below (scoreB, unitB): a lower score, or the same and a higher unit id. */
function ranksBelow(scoreA: number, unitA: number, scoreB: number, unitB: number): boolean {
  return scoreA < scoreB || (scoreA === scoreB && unitA > unitB);
}

function siftUp(heap: ScoredUnit[], index: number, worse: (a: ScoredUnit, b: ScoredUnit) => boolean) {
  let i = index;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!worse(heap[i]!, heap[parent]!)) break;
    [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
    i = parent;
  }
}

function siftDown(heap: ScoredUnit[], index: number, worse: (a: ScoredUnit, b: ScoredUnit) => boolean) {
  let i = index;
  for (;;) {
    const left = 2 * i + 1;
    const right = left + 1;
    let smallest = i;
    if (left < heap.length && worse(heap[left]!, heap[smallest]!)) smallest = left;
    if (right < heap.length && worse(heap[right]!, heap[smallest]!)) smallest = right;
    if (smallest === i) return;
    [heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!];
    i = smallest;
  }
}
