// Anthropic Messages wire format, as far as the Copilot runtime uses it. The runtime always
// sends `stream: true` to /v1/messages, so replies are SSE unless a caller explicitly asks for
// JSON (kept for completeness).

import type { ScriptMessage, ScriptReply, ScriptRequest } from "./script.js";

interface Block {
  type?: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
}

interface AnthropicBody {
  model?: string;
  stream?: boolean;
  system?: unknown;
  messages?: { role?: string; content?: unknown }[];
  tools?: { name?: string }[];
}

function blocks(content: unknown): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? (content as Block[]) : [];
}

function blockText(content: unknown): string {
  return blocks(content)
    .filter((b) => b.type === "text")
    .map((b) => b.text ?? "")
    .join("");
}

export function readAnthropicRequest(body: unknown, index: number): ScriptRequest {
  const b = (body ?? {}) as AnthropicBody;
  const messages: ScriptMessage[] = [];
  if (b.system !== undefined) messages.push({ role: "system", text: blockText(b.system) });
  for (const m of b.messages ?? []) {
    const content = blocks(m.content);
    if (m.role === "assistant") {
      messages.push({
        role: "assistant",
        text: blockText(content),
        toolCalls: content
          .filter((c) => c.type === "tool_use")
          .map((c) => ({ id: c.id ?? "", name: c.name ?? "", args: c.input })),
      });
      continue;
    }
    // A user turn carries tool results as blocks; they become tool messages so scripts read
    // both protocols the same way.
    for (const c of content) {
      if (c.type === "tool_result") {
        messages.push({ role: "tool", toolCallId: c.tool_use_id ?? "", text: blockText(c.content) });
      }
    }
    const text = blockText(content);
    if (text !== "" || !content.some((c) => c.type === "tool_result")) messages.push({ role: "user", text });
  }
  const tools = (b.tools ?? []).map((t) => t.name ?? "").filter((n) => n !== "");
  return { protocol: "anthropic", index, messages, tools };
}

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function writeAnthropicReply(body: unknown, index: number, reply: ScriptReply): Reply {
  const b = (body ?? {}) as AnthropicBody;
  const model = b.model ?? "fake-model";
  const id = `msg_${index}`;
  type OutBlock =
    | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
    | { type: "text"; text: string };
  const content: OutBlock[] =
    reply.kind === "tools"
      ? reply.calls.map((c, k) => ({
          type: "tool_use",
          id: `toolu_${index}_${k}`,
          name: c.name,
          input: c.args,
        }))
      : [{ type: "text", text: reply.text }];
  const stopReason = reply.kind === "tools" ? "tool_use" : "end_turn";

  if (b.stream === false) {
    return {
      status: 200,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        id,
        type: "message",
        role: "assistant",
        model,
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 5 },
      }),
    };
  }

  const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  let out = event("message_start", {
    type: "message_start",
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  });
  content.forEach((block, k) => {
    if (block.type === "text") {
      out += event("content_block_start", {
        type: "content_block_start",
        index: k,
        content_block: { type: "text", text: "" },
      });
      out += event("content_block_delta", {
        type: "content_block_delta",
        index: k,
        delta: { type: "text_delta", text: block.text },
      });
    } else {
      out += event("content_block_start", {
        type: "content_block_start",
        index: k,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      out += event("content_block_delta", {
        type: "content_block_delta",
        index: k,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      });
    }
    out += event("content_block_stop", { type: "content_block_stop", index: k });
  });
  out += event("message_delta", {
    type: "message_delta",
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: 5 },
  });
  out += event("message_stop", { type: "message_stop" });
  return {
    status: 200,
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
    body: out,
  };
}
