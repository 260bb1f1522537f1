import { describe, expect, it } from "vitest";
import {
  DEADLINES,
  DeadlineError,
  deadlineSignal,
  MAX_TIMER_MS,
  settleBy,
  untilAborted,
  withDeadline,
} from "../src/deadline.js";

describe("withDeadline", () => {
  it("returns the step's value and accepts plain values and sync throws", async () => {
    expect(await withDeadline("step", 1_000, undefined, async () => 42)).toBe(42);
    expect(await withDeadline("step", 1_000, undefined, () => "plain")).toBe("plain");
    await expect(
      withDeadline("step", 1_000, undefined, () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
  });

  it("stops a step that ignores its signal at the deadline, and aborts the step's signal", async () => {
    let seen: AbortSignal | undefined;
    const error = await withDeadline("slow step", 20, undefined, (signal) => {
      seen = signal;
      return new Promise(() => {});
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeadlineError);
    expect((error as DeadlineError).stop).toBe("timeout");
    expect((error as DeadlineError).layer).toBe("deadline");
    expect((error as DeadlineError).message).toBe("slow step exceeded 20 ms");
    expect(seen?.aborted).toBe(true);
  });

  it("rejects with the caller's reason when the caller aborts, before or during the step", async () => {
    const before = new AbortController();
    before.abort(new Error("gave up early"));
    let ran = false;
    await expect(
      withDeadline("step", 1_000, before.signal, async () => {
        ran = true;
      }),
    ).rejects.toThrow("gave up early");
    expect(ran).toBe(false);

    const during = new AbortController();
    const pending = withDeadline("step", 1_000, during.signal, () => new Promise(() => {}));
    during.abort(new Error("gave up"));
    await expect(pending).rejects.toThrow("gave up");
  });

  it("clamps a delay past setTimeout's maximum instead of firing at once", async () => {
    const value = await withDeadline("step", 2 ** 31 + 5, undefined, async () => {
      await new Promise((r) => setTimeout(r, 30));
      return "done";
    });
    expect(value).toBe("done");
  });
});

describe("settleBy and untilAborted", () => {
  it("settleBy gives the fallback once the signal aborts, and the value otherwise", async () => {
    const controller = new AbortController();
    const pending = settleBy(new Promise(() => {}), controller.signal, "fallback");
    controller.abort();
    expect(await pending).toBe("fallback");
    expect(await settleBy(Promise.resolve(1), new AbortController().signal, "fallback")).toBe(1);
  });

  it("untilAborted rejects with the signal's reason", async () => {
    const controller = new AbortController();
    const pending = untilAborted(new Promise(() => {}), controller.signal);
    controller.abort(new Error("stopped"));
    await expect(pending).rejects.toThrow("stopped");
  });

  it("deadlineSignal tells a deadline from a client's cancel", async () => {
    const client = new AbortController();
    const cancelled = deadlineSignal(client.signal, 1_000);
    client.abort();
    expect(cancelled.signal.aborted).toBe(true);
    expect(cancelled.expired()).toBe(false);
    const expired = deadlineSignal(undefined, 5);
    await new Promise((r) => setTimeout(r, 30));
    expect(expired.signal.aborted).toBe(true);
    expect(expired.expired()).toBe(true);
  });
});

describe("DEADLINES", () => {
  it("every default is a whole number of milliseconds a timer can wait", () => {
    for (const [name, ms] of Object.entries(DEADLINES)) {
      expect(Number.isInteger(ms) && ms > 0 && ms <= MAX_TIMER_MS, name).toBe(true);
    }
  });
});
