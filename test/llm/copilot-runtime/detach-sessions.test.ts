// Closing a bot runtime detaches its sessions; a runtime that never answers one detach must not
// hold up the close (nor the client's stop behind it).

import { describe, expect, it } from "vitest";
import { detachSessions } from "../../../src/llm/copilot-runtime/detach-sessions.js";

function session(behaviour: "answers" | "never" | "fails") {
  const state = { asked: 0, detached: false };
  return {
    state,
    disconnect: () => {
      state.asked += 1;
      if (behaviour === "never") return new Promise<void>(() => undefined);
      if (behaviour === "fails") return Promise.reject(new Error("Failed to disconnect session"));
      state.detached = true;
      return Promise.resolve();
    },
  };
}

describe("detachSessions", () => {
  it("asks every session at once and returns when the last answers", async () => {
    const sessions = [session("answers"), session("answers"), session("answers")];
    await detachSessions(sessions, 60_000);
    expect(sessions.map((s) => s.state)).toEqual(sessions.map(() => ({ asked: 1, detached: true })));
  });

  it("returns by its deadline when a session never answers, the others detached", async () => {
    const stuck = session("never");
    const answering = session("answers");
    const started = Date.now();
    const outcome = await Promise.race([
      detachSessions([stuck, answering], 100).then(() => "returned"),
      new Promise((resolve) => setTimeout(() => resolve("still waiting"), 5_000)),
    ]);
    expect(outcome).toBe("returned");
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    expect(stuck.state.asked).toBe(1);
    expect(answering.state.detached).toBe(true);
  });

  it("never throws when a detach fails", async () => {
    const failing = session("fails");
    await expect(detachSessions([failing, session("answers")], 60_000)).resolves.toBeUndefined();
    expect(failing.state.asked).toBe(1);
  });
});
