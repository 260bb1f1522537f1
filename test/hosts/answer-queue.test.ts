import { describe, expect, it } from "vitest";
import { AnswerQueue } from "../../src/hosts/answer-queue.js";
import { gate } from "./support/fake-runtime.js";

describe("AnswerQueue", () => {
  it("runs at most `concurrency` jobs, queues up to `maxQueued`, refuses past that", async () => {
    const queue = new AnswerQueue({ concurrency: 2, maxQueued: 1 });
    const hold = gate();
    const done: number[] = [];
    const job = (i: number) => async () => {
      await hold.promise;
      done.push(i);
    };
    expect([1, 2, 3, 4].map((i) => queue.offer(job(i)))).toEqual([true, true, true, false]);
    expect(queue.active).toBe(2);
    expect(queue.queued).toBe(1);
    hold.open();
    expect(await queue.drain(10_000)).toEqual({ completed: true, aborted: 0 });
    expect(done.sort()).toEqual([1, 2, 3]);
    expect(queue.highWater).toBe(2);
    expect(queue.offer(job(5))).toBe(false);
  });

  it("keeps going after a job throws", async () => {
    const queue = new AnswerQueue({ concurrency: 1, maxQueued: 5 });
    let ran = false;
    queue.offer(async () => {
      throw new Error("host bug");
    });
    queue.offer(async () => {
      ran = true;
    });
    await queue.drain(10_000);
    expect(ran).toBe(true);
  });

  it("aborts jobs still running at the drain timeout, and runs waiting ones with the aborted signal", async () => {
    const queue = new AnswerQueue({ concurrency: 1, maxQueued: 5 });
    const seen: boolean[] = [];
    const job = async (signal: AbortSignal) => {
      if (!signal.aborted) await new Promise((resolve) => signal.addEventListener("abort", resolve));
      seen.push(signal.aborted);
    };
    queue.offer(job);
    queue.offer(job);
    expect(await queue.drain(20)).toEqual({ completed: false, aborted: 2 });
    expect(seen).toEqual([true, true]);
  });

  it("rejects impossible limits", () => {
    expect(() => new AnswerQueue({ concurrency: 0, maxQueued: 1 })).toThrow(RangeError);
    expect(() => new AnswerQueue({ concurrency: 1, maxQueued: -1 })).toThrow(RangeError);
  });
});
