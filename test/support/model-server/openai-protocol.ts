// OpenAI chat-completions wire format, as far as the Copilot runtime uses it: read a request into
// script messages, write a reply as JSON or as SSE chunks (when the session streams).

import type { ScriptMessage, ScriptReply, ScriptRequest } from "./script.js";

interface OpenAiBody {
  model?: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages?: {
    role?: string;
    content?: unknown;
    tool_call_id?: string;
    tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[];
  }[];
  tools?: { function?: { name?: string } }[];
}

/** Text of an OpenAI content field: a string or an array of `{type:"text", text}` parts. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === "object" && "text" in part ? String(part.text) : ""))
      .join("");
  }
  return "";
}

function parseArgs(raw: string | undefined): unknown {
  try {
    return JSON.parse(raw ?? "{}");
  } catch {
    return raw;
  }
}

export function readOpenAiRequest(body: unknown, index: number): ScriptRequest {
  const b = (body ?? {}) as OpenAiBody;
  const messages: ScriptMessage[] = (b.messages ?? []).map((m): ScriptMessage => {
    if (m.role === "tool")
      return { role: "tool", toolCallId: m.tool_call_id ?? "", text: contentText(m.content) };
    if (m.role === "assistant") {
      return {
        role: "assistant",
        text: contentText(m.content),
        toolCalls: (m.tool_calls ?? []).map((c) => ({
          id: c.id ?? "",
          name: c.function?.name ?? "",
          args: parseArgs(c.function?.arguments),
        })),
      };
    }
    return {
      role: m.role === "system" || m.role === "developer" ? "system" : "user",
      text: contentText(m.content),
    };
  });
  const tools = (b.tools ?? []).map((t) => t.function?.name ?? "").filter((n) => n !== "");
  return { protocol: "openai", index, messages, tools };
}

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function writeOpenAiReply(body: unknown, index: number, reply: ScriptReply): Reply {
  const b = (body ?? {}) as OpenAiBody;
  const id = `chatcmpl-${index}`;
  const model = b.model ?? "fake-model";
  const created = Math.floor(Date.now() / 1000);
  const toolCalls =
    reply.kind === "tools"
      ? reply.calls.map((c, k) => ({
          id: `call_${index}_${k}`,
          type: "function" as const,
          function: { name: c.name, arguments: JSON.stringify(c.args) },
        }))
      : [];
  const finishReason = reply.kind === "tools" ? "tool_calls" : "stop";
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

  if (!b.stream) {
    const message =
      reply.kind === "tools"
        ? { role: "assistant", content: null, tool_calls: toolCalls }
        : { role: "assistant", content: reply.text };
    return {
      status: 200,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        id,
        object: "chat.completion",
        created,
        model,
        choices: [{ index: 0, message, finish_reason: finishReason }],
        usage,
      }),
    };
  }

  // Streaming: the name arrives in one chunk and the arguments in a later one, as real servers
  // split them, so the runtime's accumulation path is exercised.
  const chunk = (delta: unknown, finish: string | null) =>
    `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  let out = chunk({ role: "assistant", content: "" }, null);
  if (reply.kind === "text") {
    out += chunk({ content: reply.text }, null);
  } else {
    toolCalls.forEach((c, k) => {
      out += chunk(
        {
          tool_calls: [
            { index: k, id: c.id, type: "function", function: { name: c.function.name, arguments: "" } },
          ],
        },
        null,
      );
      out += chunk({ tool_calls: [{ index: k, function: { arguments: c.function.arguments } }] }, null);
    });
  }
  out += chunk({}, finishReason);
  if (b.stream_options?.include_usage) {
    out += `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage })}\n\n`;
  }
  out += "data: [DONE]\n\n";
  return {
    status: 200,
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
    body: out,
  };
}
