import { languageOf } from "./registry.js";

/**
 * Language detection with `eld` (Nito-ELD, n-gram based; its "small" data set: ~50 MB of heap,
 * a quarter of a second to load), loaded on first use only, so a bot whose collections all name
 * their language never pays for it.
 */
export type LanguageDetector = (text: string) => DetectedLanguage | undefined;

export interface DetectedLanguage {
  /** A supported language tag. */
  tag: string;
  /** eld's own verdict on whether the text gave it enough to go on. */
  reliable: boolean;
}

/** Detection reads this much of a text: enough for a stable verdict, bounded work per document. */
export const DETECTION_SAMPLE_CHARS = 4000;

let loading: Promise<LanguageDetector> | undefined;

export function languageDetector(): Promise<LanguageDetector> {
  loading ??= import("eld/small").then(({ eld }) => (text: string) => {
    const sample = text.slice(0, DETECTION_SAMPLE_CHARS);
    if (!/\p{L}/u.test(sample)) return undefined;
    const result = eld.detect(sample);
    // eld names Norwegian "no" and Chinese "zh"; the registry maps them to nb and zh.
    const profile = result.language ? languageOf(result.language) : undefined;
    return profile ? { tag: profile.tag, reliable: result.isReliable() } : undefined;
  });
  return loading;
}
