// The lohelp bench's options: which languages run and what the collection's `language` is set to.
import { describe, expect, it } from "vitest";
import { languageKeySupported, languageMode, lohelpBotConfig } from "../../bench/lohelp/bot.js";
import { LOHELP_LANGUAGES, selectedLanguages } from "../../bench/lohelp/languages.js";

const ja = LOHELP_LANGUAGES.find((l) => l.code === "ja")!;
const chinese = LOHELP_LANGUAGES.find((l) => l.code === "zh-cn")!;
const docsOf = (config: Record<string, unknown>) =>
  (config.knowledge as { collections: { docs: Record<string, unknown> } }).collections.docs;

describe("lohelp bench options", () => {
  it("runs all eleven languages, or those LOHELP_LANGS names, and refuses an unknown one", () => {
    expect(selectedLanguages(undefined)).toHaveLength(11);
    expect(selectedLanguages("ja, DE").map((l) => l.code)).toEqual(["de", "ja"]);
    expect(() => selectedLanguages("de,xx")).toThrow("unknown language(s) xx");
  });

  it("omits `language` with none, sets the BCP-47 tag with tag, and auto with auto", () => {
    expect(docsOf(lohelpBotConfig(ja, "none"))).toEqual({ paths: ["docs/**/*.html"] });
    expect(docsOf(lohelpBotConfig(chinese, "tag")).language).toBe("zh-CN");
    expect(docsOf(lohelpBotConfig(ja, "auto")).language).toBe("auto");
  });

  it("defaults to the tag exactly when this checkout's config knows the key", () => {
    expect(languageMode(undefined)).toBe(languageKeySupported() ? "tag" : "none");
    expect(languageMode("AUTO")).toBe("auto");
    expect(() => languageMode("english")).toThrow("LOHELP_LANGUAGE must be one of none, tag, auto");
  });
});
