import { describe, expect, it } from "vitest";
import { isKnowledgeSearchTool, parseToolName } from "../../../src/connectors/copilot-sdk/tool-name.js";

describe("isKnowledgeSearchTool", () => {
  it.each([
    "search_knowledge",
    "knowledge-search_knowledge",
    "mcp__knowledge__search_knowledge",
    "knowledge__search_knowledge",
    "melosys-knowledge-search_knowledge",
    "mcp__my__server__search_knowledge",
  ])("recognises %s", (name) => {
    expect(isKnowledgeSearchTool(name)).toBe(true);
  });

  it.each([
    "get_document",
    "knowledge-get_document",
    "mcp__knowledge__get_document",
    "search_knowledge_v2",
    "not_search_knowledge",
    "x-not_search_knowledge",
    "search-knowledge",
    "Search_Knowledge",
    "",
    "mcp__",
    "knowledge__",
  ])("rejects %s", (name) => {
    expect(isKnowledgeSearchTool(name)).toBe(false);
  });

  it("rejects non-strings and absurdly long names without work", () => {
    for (const value of [undefined, null, 42, {}, ["search_knowledge"]])
      expect(isKnowledgeSearchTool(value)).toBe(false);
    expect(isKnowledgeSearchTool(`${"a".repeat(300)}-search_knowledge`)).toBe(false);
  });

  it("uses known server names, longest first, for dashed server names", () => {
    expect(parseToolName("my-kb-search_knowledge", ["my", "my-kb"])).toEqual({
      server: "my-kb",
      tool: "search_knowledge",
    });
    expect(parseToolName("yggdrasil-symbol_context")).toEqual({
      server: "yggdrasil",
      tool: "symbol_context",
    });
    expect(parseToolName("mcp__knowledge__search_knowledge")).toEqual({
      server: "knowledge",
      tool: "search_knowledge",
    });
    expect(parseToolName("search_knowledge")).toEqual({ tool: "search_knowledge" });
  });
});
