// Tool names arrive in whatever shape the connector that exposed the tool gives them: our own
// tool is `search_knowledge`, an MCP server's is `<server>-<tool>` in the Copilot runtime,
// `mcp__<server>__<tool>` in Claude-style hosts, `<server>__<tool>` elsewhere. The corrective
// hook must recognise all of them (docs/reference/muninn-corrective-retrieval.md §2, parseToolName).

const KNOWLEDGE_SEARCH_TOOL = "search_knowledge";

export interface ParsedToolName {
  server?: string;
  tool: string;
}

/**
 * Splits a tool name into server and bare tool. `knownServers` are tried first (longest first)
 * for the `<server>-<tool>` form, since server names may themselves contain dashes.
 */
export function parseToolName(name: string, knownServers: readonly string[] = []): ParsedToolName {
  if (name.startsWith("mcp__")) {
    const rest = name.slice("mcp__".length);
    const cut = rest.lastIndexOf("__");
    if (cut > 0) return { server: rest.slice(0, cut), tool: rest.slice(cut + 2) };
    return { tool: rest };
  }
  // Split at the last `__`: tool names do not contain it, server names might.
  const doubleUnderscore = name.lastIndexOf("__");
  if (doubleUnderscore > 0 && doubleUnderscore < name.length - 2) {
    return { server: name.slice(0, doubleUnderscore), tool: name.slice(doubleUnderscore + 2) };
  }
  for (const server of [...knownServers].sort((a, b) => b.length - a.length)) {
    if (name.length > server.length + 1 && name.startsWith(`${server}-`)) {
      return { server, tool: name.slice(server.length + 1) };
    }
  }
  // Tool names are snake_case while server names are kebab-case, so the server ends at the last
  // dash before the first underscore (`melosys-knowledge-search_knowledge`).
  const firstUnderscore = name.indexOf("_");
  const head = firstUnderscore >= 0 ? name.slice(0, firstUnderscore) : name;
  const dash = firstUnderscore >= 0 ? head.lastIndexOf("-") : -1;
  if (dash > 0) return { server: name.slice(0, dash), tool: name.slice(dash + 1) };
  const firstDash = name.indexOf("-");
  if (firstDash > 0 && firstDash < name.length - 1) {
    return { server: name.slice(0, firstDash), tool: name.slice(firstDash + 1) };
  }
  return { tool: name };
}

/** True for our own knowledge search and for any MCP server's `search_knowledge`. */
export function isKnowledgeSearchTool(name: unknown, knownServers: readonly string[] = []): boolean {
  if (typeof name !== "string" || name === "" || name.length > 256) return false;
  if (name === KNOWLEDGE_SEARCH_TOOL) return true;
  return parseToolName(name, knownServers).tool === KNOWLEDGE_SEARCH_TOOL;
}
