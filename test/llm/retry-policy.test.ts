import { describe, expect, it } from "vitest";
import { LlmError } from "../../src/llm/llm-error.js";
import { retryAfterMs } from "../../src/llm/retry-after.js";
import { backoffDelay, DEFAULT_RETRY_POLICY, runWithRetries } from "../../src/llm/retry-policy.js";

const retryable = (retryAfter?: number) =>
  new LlmError("test", "http", "HTTP 503", {
    status: 503,
    retryable: true,
    ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}),
  });

describe("retryAfterMs", () => {
  it("reads seconds, an HTTP date and OpenAI's retry-after-ms (which wins)", () => {
    expect(retryAfterMs({ "retry-after": "2" })).toBe(2000);
    expect(retryAfterMs({ "retry-after": "0.5" })).toBe(500);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs({ "retry-after": "Thu, 01 Jan 2026 00:00:03 GMT" }, now)).toBe(3000);
    expect(retryAfterMs({ "retry-after": "Thu, 01 Jan 2025 00:00:03 GMT" }, now)).toBe(0);
    expect(retryAfterMs({ "retry-after": "9", "retry-after-ms": "120" })).toBe(120);
  });

  it("ignores what is not a delay", () => {
    for (const value of ["soon", "-1", "", "1e9x", "x".repeat(500)]) {
      expect(retryAfterMs({ "retry-after": value })).toBeUndefined();
    }
    expect(retryAfterMs({})).toBeUndefined();
  });
});

describe("backoffDelay", () => {
  it("doubles per retry, jitters within the upper half, and is capped", () => {
    const policy = DEFAULT_RETRY_POLICY;
    expect(backoffDelay(1, policy, () => 0)).toBe(250);
    expect(backoffDelay(1, policy, () => 0.999)).toBeLessThanOrEqual(500);
    expect(backoffDelay(3, policy, () => 0)).toBe(1000);
    expect(backoffDelay(30, policy, () => 0.999)).toBeLessThanOrEqual(policy.maxDelayMs);
  });
});

describe("runWithRetries", () => {
  const fast = { baseDelayMs: 1, maxDelayMs: 2 };
  const run = (deadlineIn = 10_000) => ({
    policy: fast,
    deadline: Date.now() + deadlineIn,
    signal: new AbortController().signal,
  });

  it("retries retryable errors up to maxAttempts, then throws the last one", async () => {
    let calls = 0;
    const failing = async () => {
      calls++;
      throw retryable();
    };
    await expect(runWithRetries(failing, { ...run(), policy: { ...fast, maxAttempts: 4 } })).rejects.toThrow(
      "HTTP 503",
    );
    expect(calls).toBe(4);
  });

  it("does not retry an error a later attempt cannot fix", async () => {
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new LlmError("test", "http", "HTTP 401", { status: 401 });
    };
    await expect(runWithRetries(failing, run())).rejects.toThrow("HTTP 401");
    expect(calls).toBe(1);
  });

  it("succeeds after a retryable failure and reports the wait", async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = await runWithRetries(
      async () => {
        if (++calls === 1) throw retryable(5);
        return "ok";
      },
      { ...run(), onRetry: ({ delayMs }) => waits.push(delayMs) },
    );
    expect(result).toBe("ok");
    expect(waits).toEqual([5]); // Retry-After (5 ms) is longer than the 1–2 ms backoff
  });

  it("fails at once when Retry-After is beyond what it will wait, or beyond the deadline", async () => {
    let calls = 0;
    const failing = (after: number) => async () => {
      calls++;
      throw retryable(after);
    };
    await expect(runWithRetries(failing(60_000), run())).rejects.toThrow("HTTP 503");
    expect(calls).toBe(1);
    await expect(runWithRetries(failing(5_000), run(1_000))).rejects.toThrow("HTTP 503");
    expect(calls).toBe(2);
  });

  it("stops a backoff wait when the signal fires", async () => {
    const controller = new AbortController();
    const failing = async () => {
      setTimeout(() => controller.abort(new Error("stopped")), 10);
      throw retryable(10_000);
    };
    await expect(
      runWithRetries(failing, {
        policy: { maxRetryAfterMs: 60_000 },
        deadline: Date.now() + 60_000,
        signal: controller.signal,
      }),
    ).rejects.toThrow("stopped");
  });
});
