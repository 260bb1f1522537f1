// The script contract of the fake model server: tests describe the model's behaviour as a
// function of the conversation so far, independent of the wire protocol the runtime speaks.

export type WireProtocol = "openai" | "anthropic";

export interface ScriptToolCall {
  id: string;
  name: string;
  args: unknown;
}

/** One message of the conversation, normalised from either wire protocol. */
export type ScriptMessage =
  | { role: "system" | "user"; text: string }
  | { role: "assistant"; text: string; toolCalls: ScriptToolCall[] }
  | { role: "tool"; toolCallId: string; text: string };

export interface ScriptRequest {
  protocol: WireProtocol;
  /** 0-based number of this request on the server. */
  index: number;
  messages: ScriptMessage[];
  /** Names of the tools offered to the model in this request. */
  tools: string[];
}

export type ScriptReply =
  | { kind: "tools"; calls: { name: string; args: Record<string, unknown> }[] }
  | { kind: "text"; text: string };

export type ModelScript = (request: ScriptRequest) => ScriptReply | Promise<ScriptReply>;

/** Tool results sent back to the model since its last assistant message, in wire order. */
export function latestToolResults(messages: ScriptMessage[]): { toolCallId: string; text: string }[] {
  const results: { toolCallId: string; text: string }[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "tool") break;
    results.unshift({ toolCallId: message.toolCallId, text: message.text });
  }
  return results;
}

/**
 * The common script: call the tools once (one turn, possibly several calls in parallel), then
 * answer by echoing the tool results verbatim so a test can read what the model received.
 */
export function callThenEcho(calls: { name: string; args: Record<string, unknown> }[]): ModelScript {
  return ({ messages }) => {
    const results = latestToolResults(messages);
    if (results.length > 0) return { kind: "text", text: results.map((r) => r.text).join("\n=====\n") };
    return { kind: "tools", calls };
  };
}

/** A model that asks for the same tool again on every request, forever. */
export function callForever(call: { name: string; args: Record<string, unknown> }): ModelScript {
  return () => ({ kind: "tools", calls: [call] });
}
