// One question's turn against a stand-in session: the bounds hold even when the runtime never
// acknowledges the prompt (send never settles), and a normal turn still returns its answer.

import type { CopilotSession, SessionEvent } from "@github/copilot-sdk";
import { describe, expect, it } from "vitest";
import { BotRuntimeError } from "../../../src/connectors/bot-runtime.js";
import { runGuardedTurn } from "../../../src/connectors/copilot-sdk/guarded-turn.js";

/** A session whose `send` does what `send` says, and whose events the test emits. */
function standInSession(send: () => Promise<string>) {
  let listener: ((event: SessionEvent) => void) | undefined;
  const state = { aborts: 0 };
  const session = {
    on: (handler: (event: SessionEvent) => void) => {
      listener = handler;
      return () => {
        listener = undefined;
      };
    },
    send,
    abort: async () => {
      state.aborts += 1;
    },
  } as unknown as CopilotSession;
  const emit = (event: Partial<SessionEvent>) => listener?.(event as SessionEvent);
  return { session, emit, state };
}

const limits = { maxToolCalls: 5, timeoutMs: 60_000 };
const never = () => new Promise<string>(() => undefined);
const rejectionOf = (turn: Promise<unknown>) =>
  turn.then(
    () => {
      throw new Error("the turn resolved");
    },
    (error: unknown) => error as BotRuntimeError,
  );

describe("runGuardedTurn", () => {
  it("closing the runtime stops a question whose prompt the runtime never acknowledged", async () => {
    const { session, state } = standInSession(never);
    const closing = new AbortController();
    const turn = rejectionOf(
      runGuardedTurn(session, "hello", { botName: "b", limits, closing: closing.signal }),
    );
    setTimeout(() => closing.abort(), 20);
    const error = await turn;
    expect(error).toBeInstanceOf(BotRuntimeError);
    expect(error.code).toBe("closed");
    expect(state.aborts).toBe(1);
  });

  it("the deadline stops it too, with the timeout error", async () => {
    const { session, state } = standInSession(never);
    const error = await rejectionOf(
      runGuardedTurn(session, "hello", { botName: "b", limits, deadline: Date.now() + 50 }),
    );
    expect(error.code).toBe("timeout");
    expect(error.message).toBe("Bot 'b' stopped: no answer within 60000 ms.");
    expect(state.aborts).toBe(1);
  });

  it("a send the runtime refuses is the session's error, in one line", async () => {
    const { session } = standInSession(() => Promise.reject(new Error("Execution failed: boom\nstack")));
    const error = await rejectionOf(runGuardedTurn(session, "hello", { botName: "b", limits }));
    expect(error.code).toBe("session");
    expect(error.message).toBe("Bot 'b': the Copilot runtime failed: Execution failed: boom");
  });

  it("an acknowledged prompt answers with the root agent's last message once the session is idle", async () => {
    const { session, emit } = standInSession(async () => "message-1");
    const turn = runGuardedTurn(session, "hello", { botName: "b", limits });
    await new Promise((resolve) => setTimeout(resolve, 10));
    emit({ type: "assistant.message", data: { content: "Hei!" } } as Partial<SessionEvent>);
    emit({ type: "session.idle", data: {} } as Partial<SessionEvent>);
    expect(await turn).toEqual({ answer: "Hei!", toolCalls: [] });
  });
});
