import { eng } from "stopword";

/**
 * The English stopword list the peers drop: stopword's `eng`, the list our analyzer is built
 * on, so no system wins or loses on which words it ignores.
 */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(eng);
