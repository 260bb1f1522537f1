// The `execute_tool <tool>` span a caller (MCP tool, CLI, connector) wraps a tool call in. The
// corrective pass run inside it emits knowledge_grade / knowledge_requery as its children.

import { type Context, context, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { errorMessage } from "../errors.js";
import { clipText } from "../text-clip.js";
import { ATTR, EXECUTE_TOOL_PREFIX, executeToolSpanName } from "./span-names.js";
import { tracer } from "./tracer.js";

/** Longer query texts are cut in attributes: a span is not a place for a 100 KB string. */
export const MAX_ATTRIBUTE_CHARS = 1024;

export interface ToolSpanOptions {
  /** Parent of the tool span; the active context when absent. */
  parentContext?: Context;
}

/**
 * Runs `fn` inside an `execute_tool <name>` span and ends the span when `fn` settles; a throw is
 * recorded on the span and rethrown. `fn` gets the span and a context holding it: with a context
 * manager registered (captureSpans registers one) the context is also active, so spans started
 * inside `fn` are children automatically; without one, pass `toolContext` on explicitly
 * (correctToolResult's `traceContext`).
 */
export async function withToolSpan<T>(
  name: string,
  args: unknown,
  fn: (span: Span, toolContext: Context) => Promise<T> | T,
  options: ToolSpanOptions = {},
): Promise<T> {
  const parent = options.parentContext ?? context.active();
  const span = tracer().startSpan(
    executeToolSpanName(name),
    { kind: SpanKind.INTERNAL, attributes: toolAttributes(name, args) },
    parent,
  );
  const toolContext = trace.setSpan(parent, span);
  try {
    return await context.with(toolContext, () => fn(span, toolContext));
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: errorMessage(error),
    });
    throw error;
  } finally {
    span.end();
  }
}

// The tool name and, for a search, its query and collections; never the whole argument object
// (a model can put anything in it).
function toolAttributes(name: string, args: unknown): Record<string, string | string[]> {
  const attributes: Record<string, string | string[]> = {
    [ATTR.operationName]: EXECUTE_TOOL_PREFIX,
    [ATTR.toolName]: name,
  };
  if (args === null || typeof args !== "object" || Array.isArray(args)) return attributes;
  const { query, collection } = args as { query?: unknown; collection?: unknown };
  if (typeof query === "string") attributes[ATTR.retrievalQueryText] = clip(query);
  if (typeof collection === "string" && collection !== "") {
    attributes[ATTR.correctiveCollections] = [clip(collection)];
  } else if (Array.isArray(collection)) {
    const names = collection.filter((c): c is string => typeof c === "string" && c !== "").slice(0, 32);
    if (names.length > 0) attributes[ATTR.correctiveCollections] = names.map(clip);
  }
  return attributes;
}

export function clip(text: string): string {
  return clipText(text, MAX_ATTRIBUTE_CHARS);
}
