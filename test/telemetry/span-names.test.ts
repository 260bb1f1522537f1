import { describe, expect, it } from "vitest";
import {
  ATTR,
  chatSpanName,
  executeToolSpanName,
  genAiProviderName,
  providerAttributes,
  SPAN_EXECUTE_TOOL_SEARCH_KNOWLEDGE,
  SPAN_KNOWLEDGE_GRADE,
  SPAN_KNOWLEDGE_REQUERY,
} from "../../src/telemetry/span-names.js";

describe("span names (docs/design.md §9)", () => {
  it("are the contract's strings", () => {
    expect(SPAN_EXECUTE_TOOL_SEARCH_KNOWLEDGE).toBe("execute_tool search_knowledge");
    expect(executeToolSpanName("get_document")).toBe("execute_tool get_document");
    expect(SPAN_KNOWLEDGE_GRADE).toBe("knowledge_grade");
    expect(SPAN_KNOWLEDGE_REQUERY).toBe("knowledge_requery");
    expect(chatSpanName("claude-haiku-4-5")).toBe("chat claude-haiku-4-5");
    expect(ATTR).toMatchObject({
      correctiveMode: "corrective.mode",
      correctiveVerdicts: "corrective.verdicts",
      correctiveFinalVerdict: "corrective.final_verdict",
      correctivePasses: "corrective.passes",
      correctiveRetries: "corrective.retries",
      evaluationName: "gen_ai.evaluation.name",
      evaluationScoreLabel: "gen_ai.evaluation.score.label",
      evaluationExplanation: "gen_ai.evaluation.explanation",
      correctiveQuery: "corrective.query",
      correctiveQueries: "corrective.queries",
      correctiveCollections: "corrective.collections",
      correctiveNewHits: "corrective.new_hits",
      retrievalQueryText: "gen_ai.retrieval.query.text",
      operationName: "gen_ai.operation.name",
      providerName: "gen_ai.provider.name",
      system: "gen_ai.system",
      requestModel: "gen_ai.request.model",
      responseModel: "gen_ai.response.model",
      usageInputTokens: "gen_ai.usage.input_tokens",
      usageOutputTokens: "gen_ai.usage.output_tokens",
    });
  });

  it("name providers as the GenAI conventions do", () => {
    expect(providerAttributes("openai")).toEqual({
      "gen_ai.provider.name": "openai",
      "gen_ai.system": "openai",
    });
    expect(genAiProviderName("anthropic")).toBe("anthropic");
    expect(genAiProviderName("azure")).toBe("azure.ai.openai");
    expect(genAiProviderName("copilot")).toBe("github.copilot");
  });
});
