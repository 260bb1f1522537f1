// Detaching Copilot sessions in bounded time. Kept apart from shared-client.ts so callers that
// load the SDK lazily (src/llm/copilot-chat-client.ts) can import it without loading the SDK.

import { DEADLINES, settleBy } from "../../deadline.js";

/** What `detachSessions` needs of a session: the SDK's `CopilotSession.disconnect`. */
export interface DetachableSession {
  disconnect(): Promise<void>;
}

/**
 * Detaches the sessions at once; never throws, and waits at most `timeoutMs` in all. A session
 * in the middle of an aborted turn is detached only when the runtime answers, which it sometimes
 * does not: unbounded, that one wait would hold up close() and the client's stop behind it.
 */
export async function detachSessions(
  sessions: Iterable<DetachableSession>,
  timeoutMs: number = DEADLINES.copilotSessionDetachMs,
): Promise<void> {
  const detached = Promise.all([...sessions].map((session) => session.disconnect().catch(() => undefined)));
  await settleBy(detached, AbortSignal.timeout(timeoutMs), undefined);
}
