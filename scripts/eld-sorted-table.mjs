// eld's n-gram table as one sorted string, looked up in place: what scripts/vendor-eld.mjs puts in
// the vendored detector instead of an object of 81,206 keys. Building that object (one JSON.parse)
// took about 0.1 s and 50 MiB in every process or parser thread that detects a language; a
// string literal costs neither, and a detection looks up only the few dozen n-grams of its text.
// eld reads its table by key alone (`ngrams[bytes]`, then `for (lang in value)`), so a Proxy
// that finds a key by binary search over the sorted lines serves it unchanged.

/**
 * The table as text: one line per n-gram, `key<TAB>lang:score,lang:score`, sorted by key in
 * code-unit order (JavaScript's default sort). eld's keys are made of its own dictionary's
 * characters, which hold neither a tab nor a line break; a table whose keys do is refused.
 */
export function tableText(ngrams) {
  const keys = Object.keys(ngrams).sort();
  const lines = [];
  for (const key of keys) {
    if (/[\t\n]/.test(key))
      throw new RangeError(`eld n-gram ${JSON.stringify(key)} holds a tab or line break`);
    const scores = Object.entries(ngrams[key]).map(([lang, score]) => `${lang}:${score}`);
    lines.push(`${key}\t${scores.join(",")}\n`);
  }
  return lines.join("");
}

/** The value of the line whose key is `key` in `text` (tableText's layout), or undefined. */
export function findInTable(text, key) {
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    // The line holding position mid: lo <= start <= mid < hi, so every step narrows the range.
    const start = text.lastIndexOf("\n", mid - 1) + 1;
    const tab = text.indexOf("\t", start);
    const end = text.indexOf("\n", tab);
    const found = text.slice(start, tab);
    if (found === key) return text.slice(tab + 1, end);
    if (found < key) lo = end + 1;
    else hi = start;
  }
  return undefined;
}

/** A line's scores as eld holds them: `{ "11": 30, "17": 12 }`. */
function scoresOf(value) {
  const scores = {};
  for (const pair of value.split(",")) {
    const colon = pair.indexOf(":");
    scores[pair.slice(0, colon)] = Number(pair.slice(colon + 1));
  }
  return scores;
}

/**
 * An object that reads as eld's n-gram table (`table[key]`, `key in table`, Object.keys) from
 * `text` (tableText's layout); each key is looked up once, its scores kept for the next time.
 */
export function sortedTable(text) {
  const known = new Map();
  const lookup = (key) => {
    if (typeof key !== "string") return undefined;
    if (known.has(key)) return known.get(key);
    const value = findInTable(text, key);
    const scores = value === undefined ? undefined : scoresOf(value);
    known.set(key, scores);
    return scores;
  };
  const allKeys = () =>
    text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => line.slice(0, line.indexOf("\t")));
  return new Proxy(Object.create(null), {
    get: (_, key) => lookup(key),
    has: (_, key) => lookup(key) !== undefined,
    ownKeys: () => allKeys(),
    getOwnPropertyDescriptor: (_, key) => {
      const value = lookup(key);
      return value === undefined
        ? undefined
        : { value, writable: false, enumerable: true, configurable: true };
    },
  });
}
