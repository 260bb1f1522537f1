import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureSpans, type SpanCapture } from "../../src/telemetry/capture-spans.js";
import { ATTR, SPAN_EXECUTE_TOOL_SEARCH_KNOWLEDGE } from "../../src/telemetry/span-names.js";
import { MAX_ATTRIBUTE_CHARS, withToolSpan } from "../../src/telemetry/tool-span.js";

describe("withToolSpan", () => {
  let capture: SpanCapture;
  beforeEach(async () => {
    capture = await captureSpans({ env: {} });
  });
  afterEach(async () => {
    await capture.shutdown();
  });

  it("wraps the call in `execute_tool <name>`, returns its value and ends the span", async () => {
    const value = await withToolSpan(
      "search_knowledge",
      { query: "q", collection: ["a", "b", 3] },
      async () => 42,
    );
    expect(value).toBe(42);
    const [span] = capture.spans();
    expect(span?.name).toBe(SPAN_EXECUTE_TOOL_SEARCH_KNOWLEDGE);
    expect(span?.attributes).toEqual({
      [ATTR.operationName]: "execute_tool",
      [ATTR.toolName]: "search_knowledge",
      [ATTR.retrievalQueryText]: "q",
      [ATTR.correctiveCollections]: ["a", "b"],
    });
  });

  it("records a throw on the span and rethrows it", async () => {
    await expect(
      withToolSpan("get_document", null, () => {
        throw new Error("nope");
      }),
    ).rejects.toThrow("nope");
    const [span] = capture.spans();
    expect(span?.name).toBe("execute_tool get_document");
    expect(span?.status).toMatchObject({ code: 2, message: "nope" });
    expect(span?.events.map((e) => e.name)).toContain("exception");
  });

  it("clips a huge query in the attribute", async () => {
    await withToolSpan("search_knowledge", { query: "x".repeat(100_000) }, () => undefined);
    const text = capture.spans()[0]?.attributes[ATTR.retrievalQueryText] as string;
    expect(text.length).toBe(MAX_ATTRIBUTE_CHARS + 1);
  });

  it("the span is active inside the call, across awaits", async () => {
    const { trace } = await import("@opentelemetry/api");
    let inner: string | undefined;
    await withToolSpan("search_knowledge", {}, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      inner = trace.getActiveSpan()?.spanContext().spanId;
    });
    expect(inner).toBe(capture.spans()[0]?.spanContext().spanId);
  });
});
