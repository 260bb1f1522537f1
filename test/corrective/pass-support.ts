// A corrective pass over a structured or text result, for the step tests: the settings a pass
// would get from runCorrectiveRetrieval, the reader chosen as the orchestrator chooses it.

import type { CorrectiveRetrievalInput } from "../../src/corrective/corrective-pass.js";
import { type CorrectivePass, passSettings, startPass } from "../../src/corrective/corrective-pass.js";
import { structuredResult, textResult } from "../../src/corrective/signal-grader.js";
import { renderSearchResponse } from "../../src/knowledge-tool/render.js";
import type { KnowledgeBackend, SearchResponse } from "../../src/types.js";
import { silent } from "./corrective-fixtures.js";

export function passOver(
  original: SearchResponse,
  overrides: Partial<CorrectiveRetrievalInput> & { backend: KnowledgeBackend },
  mode: "structured" | "text" = "structured",
): CorrectivePass {
  const text = renderSearchResponse(original, { brief: overrides.brief === true });
  const settings = passSettings({
    question: "",
    originalQuery: original.query,
    originalText: text,
    allowedCollections: overrides.backend.collections(),
    log: silent,
    ...overrides,
  });
  const brief = overrides.brief === true;
  const shown = mode === "structured" ? structuredResult(original, text, brief) : textResult(text, brief);
  return startPass(settings, shown, text, overrides.languages);
}
