import Database from "better-sqlite3";
import type { EvalDoc } from "../../src/evaluation/dataset.js";
import type { Peer } from "./peer.js";
import { ENGLISH_STOPWORDS } from "./stopwords.js";

/** Letter/number runs: the words FTS5's unicode61 tokenizer would find in the query. */
const QUERY_WORD = /[\p{L}\p{M}\p{N}]+/gu;

export interface Fts5PeerOptions {
  /** Shown in result tables; default "SQLite FTS5". */
  label?: string;
  /** FTS5's `tokenize` argument; default 'porter unicode61'. */
  tokenize?: string;
  /** Rewrites a document's title and text before they are inserted (say, CJK runs into space-separated bigrams). */
  prepareText?: (text: string) => string;
  /** The query's words to OR (FTS5's tokenizer then analyses each); default: English stopwords dropped. */
  queryWords?: (query: string) => string[];
}

/**
 * SQLite FTS5 through better-sqlite3, set up as the data README's baseline: an in-memory
 * database, tokenize='porter unicode61', ranked by bm25(), one indexed column holding the title
 * twice and then the text (the README's "title + text as one field", with the title weighted
 * 2x as in its BM25 row, as MiniSearch's boost and our title field weigh it). On Cranfield this
 * setup reproduces the README's FTS5 row; the title once scores a little lower.
 *
 * Queries: the query's stopwords are dropped and the remaining words OR-ed, each one quoted
 * (FTS5 string syntax, `"` doubled) so that `*`, `-`, `:`, `^`, parentheses or a bare NEAR/AND
 * in a user's query are matched as text instead of breaking the MATCH expression. FTS5's porter
 * tokenizer stems the quoted words the same way it stemmed the documents. The options set another
 * tokenizer, document rewrite and query words (the language-aware peers of bench/lohelp.bench.ts).
 */
export class Fts5Peer implements Peer {
  readonly label: string;
  private readonly db = new Database(":memory:");
  private ids: string[] = [];
  private select: Database.Statement<[string, number], number> | undefined;
  private readonly tokenize: string;
  private readonly prepareText: (text: string) => string;
  private readonly queryWords: (query: string) => string[];

  constructor(options: Fts5PeerOptions = {}) {
    this.label = options.label ?? "SQLite FTS5";
    this.tokenize = options.tokenize ?? "porter unicode61";
    this.prepareText = options.prepareText ?? ((text) => text);
    this.queryWords = options.queryWords ?? englishQueryWords;
  }

  build(docs: readonly EvalDoc[]): void {
    this.db.exec(
      `CREATE VIRTUAL TABLE docs USING fts5(body, tokenize = '${this.tokenize.replaceAll("'", "''")}')`,
    );
    const insert = this.db.prepare<[number, string]>("INSERT INTO docs(rowid, body) VALUES (?, ?)");
    this.ids = docs.map((d) => d.id);
    // One transaction: FTS5 otherwise flushes its pending segment on every autocommit.
    this.db.transaction(() => {
      docs.forEach((d, i) => {
        const title = this.prepareText(d.title);
        insert.run(i + 1, `${title}\n${title}\n${this.prepareText(d.text)}`);
      });
    })();
    // Merge the b-tree segments the inserts left behind, as a read-mostly index would be kept.
    this.db.exec("INSERT INTO docs(docs) VALUES ('optimize')");
    this.select = this.db
      .prepare<[string, number], number>(
        "SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT ?",
      )
      .pluck();
  }

  search(query: string, k: number): string[] {
    if (!this.select) throw new Error("Fts5Peer: search before build");
    const expression = orExpression(this.queryWords(query));
    if (expression === "") return [];
    return this.select.all(expression, k).map((rowid) => this.ids[rowid - 1]!);
  }

  /** The database's size: for an in-memory database, the pages SQLite holds outside the V8 heap. */
  nativeBytes(): number {
    const pages = this.db.pragma("page_count", { simple: true }) as number;
    const pageSize = this.db.pragma("page_size", { simple: true }) as number;
    return pages * pageSize;
  }

  close(): void {
    this.db.close();
  }
}

/** The default query words: letter/number runs, NFKC and lower case, English stopwords dropped. */
function englishQueryWords(query: string): string[] {
  const words: string[] = [];
  for (const match of query.normalize("NFKC").toLowerCase().matchAll(QUERY_WORD)) {
    if (!ENGLISH_STOPWORDS.has(match[0])) words.push(match[0]);
  }
  return words;
}

/** Words as an FTS5 MATCH expression: each quoted (FTS5 string syntax, `"` doubled), OR-ed; "" if none. */
function orExpression(words: readonly string[]): string {
  return words.map((word) => `"${word.replaceAll('"', '""')}"`).join(" OR ");
}

/** The query as an FTS5 MATCH expression: non-stopword words, each quoted, OR-ed; "" if none. */
export function fts5OrQuery(query: string): string {
  return orExpression(englishQueryWords(query));
}
