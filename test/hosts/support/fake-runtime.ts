// A BotRuntime for host tests: records every question with its conversation id, tracks how many
// questions run at once, and answers through a function the test supplies.
import type { AskOptions, AskResult, BotRuntime } from "../../../src/connectors/bot-runtime.js";

export interface AskedQuestion {
  question: string;
  conversationId: string;
}

export type Answerer = (question: string, options: AskOptions) => Promise<AskResult> | AskResult;

export class FakeRuntime implements BotRuntime {
  readonly asked: AskedQuestion[] = [];
  running = 0;
  highWater = 0;
  closed = false;

  constructor(
    private answerer: Answerer = (question) => ({ answer: `Answer to: ${question}`, toolCalls: [] }),
  ) {}

  answerWith(answerer: Answerer): void {
    this.answerer = answerer;
  }

  async ask(question: string, options: AskOptions): Promise<AskResult> {
    this.asked.push({ question, conversationId: options.conversationId });
    this.running++;
    this.highWater = Math.max(this.highWater, this.running);
    try {
      return await this.answerer(question, options);
    } finally {
      this.running--;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/** A promise the test resolves by hand, to hold answers in flight. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
