// Token estimates without a tokenizer, as docs/reference/vectorless-strategies.md §2.5 does at ingest:
// max(words × 1.3, chars / 4), at least 1 for non-empty text. Characters are JavaScript string
// units (UTF-16), our one convention for every length and offset in the strategies.

export type TokenCounter = (text: string) => number;

export const estimateTokens: TokenCounter = (text) => {
  if (text === "") return 0;
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c === 32 || c === 9 || c === 10 || c === 13;
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return Math.max(1, Math.ceil(Math.max((words * 13) / 10, text.length / 4)));
};

/** The reference tests' tokenizer: characters / 4. */
export const quarterChars: TokenCounter = (text) => Math.ceil(text.length / 4);
