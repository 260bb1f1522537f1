import { describe, expect, it } from "vitest";
import {
  BROADER_QUERY_STOPWORDS,
  broaderQuery,
  dropLastContentWord,
  isStopword,
  MAX_BROADER_QUERY_INPUT_CHARS,
} from "../../../src/knowledge/hints/broader-query.js";

// Cases ported from docs/reference/huginn-search-contract.md (§3 examples and §6
// TestBroadenQuery, TestGetRetryHints, TestDropLastContentWord, TestBroadenQueryStopwordAware,
// test_broader_strategy_recorded, test_drop_last_word_under_two_tokens_omits_broader), with
// the hint-level filters applied: a candidate under 2 tokens or equal to the query is no hint.

describe("broaderQuery: the contract's examples", () => {
  it("artikkel 13 og lovvalg → artikkel 13 (conjunction_split)", () => {
    expect(broaderQuery("artikkel 13 og lovvalg")).toEqual({
      query: "artikkel 13",
      strategy: "conjunction_split",
    });
  });

  it("trygdeavgift beregning (for selvstendig) → trygdeavgift beregning (trailing_parens)", () => {
    expect(broaderQuery("trygdeavgift beregning (for selvstendig)")).toEqual({
      query: "trygdeavgift beregning",
      strategy: "trailing_parens",
    });
  });

  it("alpha beta gamma delta → alpha beta gamma (drop_last_word)", () => {
    expect(broaderQuery("alpha beta gamma delta")).toEqual({
      query: "alpha beta gamma",
      strategy: "drop_last_word",
    });
  });

  it("meningen med livet → none (collapses to the single token 'meningen')", () => {
    expect(broaderQuery("meningen med livet")).toBeUndefined();
  });

  it("two words → none", () => {
    expect(broaderQuery("two words")).toBeUndefined();
  });
});

describe("broaderQuery: TestBroadenQuery", () => {
  it("keeps the first conjunct when it has 2+ tokens", () => {
    expect(broaderQuery("FAISS index versus BM25 tradeoffs")).toEqual({
      query: "FAISS index",
      strategy: "conjunction_split",
    });
    expect(broaderQuery("lovvalg ved utsending and trygd")?.query).toBe("lovvalg ved utsending");
    expect(broaderQuery("trygd i Norge og pensjon")?.query).toBe("trygd i Norge");
  });

  it("drops a single-token first conjunct instead of offering it", () => {
    // Huginn's pre-filter results were "lovvalg", "trygd", "FAISS": one token each, so no hint.
    expect(broaderQuery("lovvalg and utsending")).toBeUndefined();
    expect(broaderQuery("trygd og pensjon her")).toBeUndefined();
    expect(broaderQuery("FAISS versus BM25 tradeoffs")).toBeUndefined();
  });

  it("splits on every separator, case-insensitively", () => {
    expect(broaderQuery("rust async vs. go goroutines")?.query).toBe("rust async");
    expect(broaderQuery("rust async vs go goroutines")?.query).toBe("rust async");
    expect(broaderQuery("rust async VS go goroutines")?.query).toBe("rust async");
    expect(broaderQuery("sick leave & parental leave")?.query).toBe("sick leave");
    expect(broaderQuery("Sick Leave AND parental leave")?.query).toBe("Sick Leave");
    expect(broaderQuery("artikkel 13 OG lovvalg")?.query).toBe("artikkel 13");
  });

  it("tries separators in Huginn's order, not by position in the query", () => {
    expect(broaderQuery("cats and dogs versus birds")).toEqual({
      query: "cats and dogs",
      strategy: "conjunction_split",
    });
  });

  it("needs the spaces around a separator: words containing one do not split", () => {
    expect(broaderQuery("android ogden sandbox")).toEqual({
      query: "android ogden",
      strategy: "drop_last_word",
    });
  });

  it("strips a trailing parenthetical", () => {
    expect(broaderQuery("trygdeavgift beregning (for selvstendig)")?.query).toBe("trygdeavgift beregning");
    expect(broaderQuery("pension rules (2024)  ")?.query).toBe("pension rules");
    expect(broaderQuery("pension rules(2024)")?.query).toBe("pension rules");
  });

  it("strips only the last parenthetical, and from its first unclosed '('", () => {
    expect(broaderQuery("sick pay (norway) rules (2024)")?.query).toBe("sick pay (norway) rules");
    expect(broaderQuery("sick pay rules (a (b)")?.query).toBe("sick pay rules");
  });

  it("ignores a parenthetical that is the whole query", () => {
    expect(broaderQuery("(alpha beta gamma delta)")).toEqual({
      query: "(alpha beta gamma",
      strategy: "drop_last_word",
    });
  });

  it("unquotes", () => {
    expect(broaderQuery('"exact phrase here"')).toEqual({ query: "exact phrase here", strategy: "unquote" });
    expect(broaderQuery('"alpha beta gamma"')?.strategy).toBe("unquote");
    expect(broaderQuery('search "exact phrase" please')?.query).toBe("search exact phrase please");
  });

  it("an unquoted single word is not a hint", () => {
    expect(broaderQuery('"lovvalg"')).toBeUndefined();
  });

  it("drops the last word when the query is long enough", () => {
    expect(broaderQuery("alpha beta gamma delta epsilon")).toEqual({
      query: "alpha beta gamma delta",
      strategy: "drop_last_word",
    });
  });

  it("short queries give none", () => {
    expect(broaderQuery("two words")).toBeUndefined();
    expect(broaderQuery("one")).toBeUndefined();
    expect(broaderQuery("")).toBeUndefined();
    expect(broaderQuery("   ")).toBeUndefined();
    expect(broaderQuery("ab cd")).toBeUndefined();
    expect(broaderQuery("short query")).toBeUndefined();
  });
});

describe("broaderQuery: earlier rules do not fall through", () => {
  it("conjunction takes precedence over drop_last_word, even when its candidate is discarded", () => {
    // Huginn: "alpha and beta gamma" splits to "alpha" (one token) and then has no hint.
    expect(broaderQuery("alpha and beta gamma")).toBeUndefined();
    expect(broaderQuery("alpha beta and gamma delta")).toEqual({
      query: "alpha beta",
      strategy: "conjunction_split",
    });
  });

  it("conjunction takes precedence over parentheses and quotes", () => {
    expect(broaderQuery('"alpha beta" and gamma (delta)')).toEqual({
      query: '"alpha beta"',
      strategy: "conjunction_split",
    });
  });

  it("parentheses take precedence over quotes and their single-token result is final", () => {
    expect(broaderQuery('"alpha beta" (gamma)')).toEqual({
      query: '"alpha beta"',
      strategy: "trailing_parens",
    });
    expect(broaderQuery("alpha (beta gamma delta)")).toBeUndefined();
  });
});

describe("broaderQuery: strategy recorded (test_broader_strategy_recorded)", () => {
  it.each([
    ["artikkel 13 og lovvalg", "conjunction_split"],
    ["trygdeavgift beregning (for selvstendig)", "trailing_parens"],
    ['"alpha beta gamma"', "unquote"],
    ["blockchain quantum computing AI", "drop_last_word"],
  ])("%s → %s", (query, strategy) => {
    expect(broaderQuery(query)?.strategy).toBe(strategy);
  });
});

describe("broaderQuery: TestBroadenQueryStopwordAware", () => {
  it("collapsing to one token gives none", () => {
    expect(broaderQuery("meningen med livet")).toBeUndefined();
    expect(broaderQuery("hva er lovvalg")).toBeUndefined();
  });

  it("the pure fallback path works", () => {
    expect(broaderQuery("blockchain quantum computing AI")).toEqual({
      query: "blockchain quantum computing",
      strategy: "drop_last_word",
    });
  });

  it("trims dangling stopwords after the drop", () => {
    expect(broaderQuery("trygdeavgift beregning for selvstendige")).toEqual({
      query: "trygdeavgift beregning",
      strategy: "drop_last_word",
    });
    expect(broaderQuery("hvordan beregne skatt for")).toEqual({
      query: "hvordan beregne",
      strategy: "drop_last_word",
    });
  });

  it("an all-stopword query gives none", () => {
    expect(broaderQuery("hva er det")).toBeUndefined();
    expect(broaderQuery("what is the")).toBeUndefined();
    // Contains " and ": the conjunction rule fires first and yields the single token "the".
    expect(broaderQuery("the and of")).toBeUndefined();
  });
});

describe("broaderQuery: equal to the query ignoring case is discarded", () => {
  it("never returns the query itself", () => {
    for (const q of ["Alpha Beta Gamma", "  spaced   out   query  ", '"', "a b c", "x (y)"]) {
      const b = broaderQuery(q);
      if (b !== undefined) expect(b.query.toLowerCase()).not.toBe(q.trim().toLowerCase());
    }
  });
});

describe("dropLastContentWord: TestDropLastContentWord", () => {
  it("fewer than 3 tokens gives none", () => {
    expect(dropLastContentWord("two words")).toBeUndefined();
    expect(dropLastContentWord("one")).toBeUndefined();
    expect(dropLastContentWord("")).toBeUndefined();
  });

  it("drops the last content word at three tokens (before the 2-token filter)", () => {
    expect(dropLastContentWord("meningen med livet")).toBe("meningen");
  });

  it("trims trailing stopwords", () => {
    expect(dropLastContentWord("trygdeavgift beregning for selvstendige")).toBe("trygdeavgift beregning");
  });

  it("skips trailing stopwords when choosing the word to drop", () => {
    expect(dropLastContentWord("regler for utsending av")).toBe("regler");
    expect(dropLastContentWord("sick leave rules in the")).toBe("sick leave");
  });

  it("gives none when only stopwords remain", () => {
    expect(dropLastContentWord("hva er lovvalg")).toBeUndefined();
  });

  it("is punctuation-aware", () => {
    expect(dropLastContentWord("trygdeavgift beregning for, selvstendige")).toBe("trygdeavgift beregning");
    expect(dropLastContentWord("What is lovvalg?")).toBeUndefined();
    expect(dropLastContentWord("regler for (utsending) av.")).toBe("regler");
    // A bare punctuation token is neither content nor a stopword: it is skipped, then kept.
    expect(dropLastContentWord("alpha beta - gamma")).toBe("alpha beta -");
  });

  it("an all-stopword query gives none", () => {
    expect(dropLastContentWord("the and of")).toBeUndefined();
    expect(dropLastContentWord("hva er det")).toBeUndefined();
  });

  it("normalises inner whitespace to single spaces", () => {
    expect(dropLastContentWord("alpha\tbeta  gamma\ndelta")).toBe("alpha beta gamma");
  });
});

describe("stopwords", () => {
  it("exports Huginn's Norwegian + English list", () => {
    for (const w of ["og", "på", "i", "er", "hva", "hvordan", "the", "and", "of", "what", "how"]) {
      expect(BROADER_QUERY_STOPWORDS.has(w)).toBe(true);
    }
    expect(BROADER_QUERY_STOPWORDS.has("lovvalg")).toBe(false);
    expect(BROADER_QUERY_STOPWORDS.size).toBe(72);
  });

  it("isStopword lower-cases and strips surrounding punctuation", () => {
    expect(isStopword("The")).toBe(true);
    expect(isStopword("(for),")).toBe(true);
    expect(isStopword("PÅ?")).toBe(true);
    expect(isStopword("lovvalg")).toBe(false);
    expect(isStopword("")).toBe(false);
  });
});

describe("bounds", () => {
  it("refuses queries over the input bound", () => {
    const long = `${"word ".repeat(MAX_BROADER_QUERY_INPUT_CHARS / 5)}tail`;
    expect(long.length).toBeGreaterThan(MAX_BROADER_QUERY_INPUT_CHARS);
    expect(broaderQuery(long)).toBeUndefined();
    const atBound = "word ".repeat(MAX_BROADER_QUERY_INPUT_CHARS / 5);
    expect(broaderQuery(atBound)?.strategy).toBe("drop_last_word");
  });

  it("answers adversarial input at the bound with a widening of it, or nothing", () => {
    const inputs = [
      `a${" ".repeat(MAX_BROADER_QUERY_INPUT_CHARS - 3)}(`,
      `x ${"(".repeat(MAX_BROADER_QUERY_INPUT_CHARS - 3)})`,
      `x${" )".repeat((MAX_BROADER_QUERY_INPUT_CHARS - 2) / 2)}`,
      '"'.repeat(MAX_BROADER_QUERY_INPUT_CHARS),
      "the ".repeat(MAX_BROADER_QUERY_INPUT_CHARS / 4),
    ];
    // Linear time on these inputs is measured in bench/ (a timed unit test would be flaky).
    for (const q of inputs) {
      const broader = broaderQuery(q);
      if (broader) expect(broader.query.length).toBeLessThan(q.length);
    }
  });
});
