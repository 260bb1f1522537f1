// The `list_collections` result. A Huginn server's listing is rendered as its adapter renders
// it (`- **name**: N documents, M embeddings (updated: T)`, `?`/`unknown` where a count is
// missing); the embedded engine has no embeddings or update time, so it says what it has.
import type { CollectionSummary } from "../../backends/huginn/huginn-backend.js";
import type { CollectionLanguage } from "../../types.js";

export const NO_COLLECTIONS = "No collections loaded.";

export function renderCollections(
  summaries: readonly CollectionSummary[],
  style: "huginn" | "embedded",
  languages: Readonly<Record<string, CollectionLanguage>> = {},
): string {
  if (summaries.length === 0) return NO_COLLECTIONS;
  const lines = ["**Loaded collections:**\n"];
  for (const c of summaries) {
    if (style === "huginn") {
      lines.push(
        `- **${c.name}**: ${c.documents ?? "?"} documents, ${c.embeddings ?? "?"} embeddings` +
          ` (updated: ${c.updatedTime ?? "unknown"})`,
      );
    } else {
      const counts = [
        c.documents !== undefined ? `${c.documents} documents` : undefined,
        c.chunks !== undefined ? `${c.chunks} sections` : undefined,
      ].filter((part) => part !== undefined);
      const language = languages[c.name]?.name;
      if (language) counts.push(`in ${language}`);
      lines.push(counts.length > 0 ? `- **${c.name}**: ${counts.join(", ")}` : `- **${c.name}**`);
    }
  }
  return lines.join("\n");
}
