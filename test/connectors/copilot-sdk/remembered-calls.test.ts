import { describe, expect, it, vi } from "vitest";
import { RememberedCalls } from "../../../src/connectors/copilot-sdk/remembered-calls.js";
import type { SearchCall } from "../../../src/corrective/search-call.js";
import type { OpenToolSpan } from "../../../src/telemetry/tool-span.js";

const span = () =>
  ({ endAtResult: vi.fn(), end: vi.fn() }) as unknown as OpenToolSpan & {
    endAtResult: ReturnType<typeof vi.fn>;
  };
const call = (text: string, toolSpan?: OpenToolSpan): SearchCall => ({
  args: { query: "q" },
  scope: ["wiki"],
  text,
  ...(toolSpan ? { toolSpan } : {}),
});

describe("RememberedCalls", () => {
  it("hands a call over once, by its key, when the text is the one it rendered", () => {
    const calls = new RememberedCalls();
    const first = call("one");
    calls.remember("k", first);
    expect(calls.take("other", "one")).toBeUndefined();
    expect(calls.take("k", "changed by the runtime")).toBeUndefined();
    expect(calls.take("k", "one")).toBe(first);
    expect(calls.take("k", "one")).toBeUndefined();
    expect(calls.size).toBe(0);
  });

  it("identical calls are handed over oldest first", () => {
    const calls = new RememberedCalls();
    const a = call("a");
    const b = call("b");
    calls.remember("k", a);
    calls.remember("k", b);
    expect(calls.take("k", "b")).toBe(b);
    expect(calls.take("k", "a")).toBe(a);
  });

  it("past its bound the oldest is dropped and its span ends; the same search and text again replaces it", () => {
    const calls = new RememberedCalls(2);
    const oldest = span();
    calls.remember("k1", call("one", oldest));
    calls.remember("k2", call("two"));
    calls.remember("k3", call("three"));
    expect(oldest.endAtResult).toHaveBeenCalledTimes(1);
    expect(calls.size).toBe(2);
    const earlier = span();
    calls.remember("k3", call("three", earlier));
    expect(calls.size).toBe(2);
    expect(calls.take("k3", "three")?.toolSpan).toBe(earlier);
  });
});
