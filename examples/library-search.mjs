// A bot made in a temporary folder, searched and corrected as its search_knowledge tool would be.
// In a project that ran `npm i second-look`: node library-search.mjs ["your question"]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { correctToolResult, loadBot, openBotBackend } from "second-look";
import { renderSearchResponse } from "second-look/knowledge-tool";

// A bot is a folder holding a config.json and its documents.
const dir = mkdtempSync(join(tmpdir(), "second-look-example-"));
mkdirSync(join(dir, "docs"));
writeFileSync(
  join(dir, "docs", "leave.md"),
  "# Annual leave\n\nEveryone gets 25 vacation days a year. Up to 5 unused days carry over to March.\n",
);
writeFileSync(
  join(dir, "docs", "expenses.md"),
  "# Travel expenses\n\nKeep every receipt and file the claim within 30 days of the trip.\n",
);
writeFileSync(
  join(dir, "config.json"),
  JSON.stringify({
    knowledge: { collections: { handbook: { paths: ["docs/**/*.md"] } } },
    correctiveRetrieval: { enabled: true, grader: "signal" },
  }),
);

const query = process.argv[2] ?? "how many vacation days do I get";
const { backend, close } = await openBotBackend(await loadBot(dir));
try {
  const response = await backend.search({ query });
  const text = renderSearchResponse(response, { brief: false });
  const corrected = await correctToolResult(
    { toolName: "search_knowledge", toolArgs: { query }, resultText: text, response },
    { backend, allowedCollections: backend.collections(), budget: 1 },
  );
  // What the model reads: the corrected text, or the original when the pass had nothing to add.
  console.log(corrected?.text ?? text);
} finally {
  await close();
  rmSync(dir, { recursive: true, force: true });
}
