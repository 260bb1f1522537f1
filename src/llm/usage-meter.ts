// The running total of one client's calls and tokens, so a host can see what the grader (or a
// strategy) has cost so far without a tracing backend.
import { countOrZero } from "../limits.js";
import type { ChatUsage, UsageTotals } from "./llm-client.js";

export class UsageMeter {
  private readonly totals: UsageTotals = {
    calls: 0,
    failures: 0,
    retries: 0,
    inputTokens: 0,
    outputTokens: 0,
  };

  call(): void {
    this.totals.calls++;
  }

  failed(): void {
    this.totals.failures++;
  }

  retried(): void {
    this.totals.retries++;
  }

  add(usage: ChatUsage): void {
    this.totals.inputTokens += countOrZero(usage.inputTokens);
    this.totals.outputTokens += countOrZero(usage.outputTokens);
  }

  /** A copy: callers cannot change the running total. */
  snapshot(): UsageTotals {
    return { ...this.totals };
  }
}

// Token counts come from the provider's reply: anything that is not a count adds nothing.
