// A fake LlmClient scripted turn by turn: each call takes the next turn (a reply text, an
// Error to throw, or a function of the request). Tokens are characters / 4, as in the
// reference's tests. Every request is recorded for assertions on prompts.
import type { ChatRequest, ChatResponse, LlmClient } from "../../src/llm/llm-client.js";

export type Turn = string | Error | ((request: ChatRequest, call: number) => string | Error);

export class ScriptedLlm implements LlmClient {
  readonly requests: ChatRequest[] = [];

  constructor(
    private readonly turns: Turn[] | ((request: ChatRequest, call: number) => string | Error),
    readonly model = "scripted-model",
    private readonly options: { repeatLast?: boolean } = {},
  ) {}

  get calls(): number {
    return this.requests.length;
  }

  /** The last user message of call `i` (default: the latest call). */
  lastUserPrompt(i = this.requests.length - 1): string {
    const messages = this.requests[i]?.messages ?? [];
    return [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const call = this.requests.length;
    this.requests.push(structuredClone(request));
    let turn: Turn | undefined;
    if (typeof this.turns === "function") turn = this.turns;
    else turn = this.turns[call] ?? (this.options.repeatLast ? this.turns[this.turns.length - 1] : undefined);
    if (turn === undefined) throw new Error(`scripted model: no turn ${call + 1}`);
    const reply = typeof turn === "function" ? turn(request, call) : turn;
    if (reply instanceof Error) throw reply;
    const prompt = (request.system ?? "") + request.messages.map((m) => m.content).join("");
    return {
      text: reply,
      model: request.model ?? this.model,
      usage: { inputTokens: Math.ceil(prompt.length / 4), outputTokens: Math.ceil(reply.length / 4) },
    };
  }
}

/** The reference's mockLLM: picks each listed id that appears in the last user prompt (legacy shape). */
export function pickingLlm(ids: readonly string[], model = "scripted-model"): ScriptedLlm {
  return new ScriptedLlm((request) => {
    const prompt = [...request.messages].reverse().find((m) => m.role === "user")?.content ?? "";
    const outline = prompt.split("Peripheral siblings")[0]!;
    return JSON.stringify({
      selected_section_ids: ids.filter((id) => outline.includes(`[${id}]`)),
      reasoning: "mock",
    });
  }, model);
}
