import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { logger } from "../../telemetry/logger.js";
import type { QueryLanguageGuess } from "../../weakness.js";
import { languageOf } from "./registry.js";

/**
 * Language detection with `eld` (Nito-ELD, n-gram based; its "small" data set), loaded on first
 * use only, so a bot that never detects never pays for it. One detector for both
 * uses: the document language of an "auto" collection, and the query language the corrective pass
 * compares with the documents' (src/weakness.ts isLanguageMismatch), which reads every language's
 * score rather than trusting the guess alone.
 */
export type LanguageDetector = (text: string) => DetectedLanguage | undefined;

/** The most likely supported language, eld's verdict on its reliability, and every score. */
export type DetectedLanguage = QueryLanguageGuess;

/** Detection reads this much of a text: enough for a stable verdict, bounded work per document. */
export const DETECTION_SAMPLE_CHARS = 4000;

type Eld = typeof import("eld/small");

/**
 * The copy scripts/vendor-eld.mjs writes at build time: eld/small with its n-gram table one sorted
 * string looked up in place, which loads in about 13 ms and 11 MiB where the package's object
 * literal takes 0.4 s and 50 MiB (that script says why); else the package as published (a build
 * that skipped the script).
 */
const VENDORED = fileURLToPath(new URL("../../../vendor/eld/eld-small.cjs", import.meta.url));

async function loadEld(): Promise<Eld> {
  try {
    return createRequire(import.meta.url)(VENDORED) as Eld;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw error;
    return import("eld/small");
  }
}

let loading: Promise<LanguageDetector> | undefined;

/** The detector, loaded once per process; a detector that fails to load detects nothing. */
export function languageDetector(): Promise<LanguageDetector> {
  loading ??= loadEld().then(
    ({ eld }): LanguageDetector =>
      (text) => {
        const sample = text.slice(0, DETECTION_SAMPLE_CHARS);
        if (!/\p{L}/u.test(sample)) return undefined;
        const result = eld.detect(sample);
        // eld names Norwegian "no"; the registry maps it (and every other code) to a supported tag.
        const profile = result.language ? languageOf(result.language) : undefined;
        if (!profile) return undefined;
        const scores: Record<string, number> = {};
        for (const [code, score] of Object.entries(result.getScores())) {
          const tag = languageOf(code)?.tag;
          if (tag !== undefined && Number.isFinite(score)) scores[tag] = Math.max(scores[tag] ?? 0, score);
        }
        return { tag: profile.tag, name: profile.name, reliable: result.isReliable(), scores };
      },
    (error: unknown): LanguageDetector => {
      // Searches go on without language evidence; said once, so a broken install is seen.
      logger().warn(
        { err: error },
        "language detector (eld) failed to load: no query or document language is detected in this process",
      );
      return () => undefined;
    },
  );
  return loading;
}
