// Ties each corrective outcome to the tool call it belongs to. The postToolUse hook input has no
// tool call id, and with parallel calls the hooks need not run in the order the calls started
// (the runtime hooks each call when its handler finishes), so muninn's positional slots (docs/reference/muninn-corrective-retrieval.md §7.4)
// can attach one search's metadata to another. Instead, each hook claims the oldest unclaimed
// call with the same (bare tool name, canonical arguments) key, taken from the
// `tool.execution_start` events, which carry the id. Identical calls are interchangeable, so
// FIFO within a key is exact enough; different calls can never be swapped.

import type { CorrectiveRecord } from "../bot-runtime.js";
import { toolCallKey } from "./call-key.js";

/** A hook invocation's handle on its call; settle it once the corrective pass is done. */
export interface CallClaim {
  settle(record: CorrectiveRecord | undefined): void;
}

interface PendingClaim {
  callId?: string;
  settled: boolean;
  record?: CorrectiveRecord;
}

export class CallMatcher {
  /** Calls that started and have not been claimed by a hook yet, per key, oldest first. */
  private readonly unclaimedCalls = new Map<string, string[]>();
  /** Hooks that arrived before their start event (not seen with runtime 1.0.85, but cheap to allow). */
  private readonly unboundClaims = new Map<string, PendingClaim[]>();
  private readonly records = new Map<string, CorrectiveRecord>();

  /** Record a started knowledge-search call (from `tool.execution_start`). */
  noteStart(callId: string, toolName: string, args: unknown): void {
    const key = toolCallKey(toolName, args);
    const waiting = this.unboundClaims.get(key);
    const claim = waiting?.shift();
    if (claim) {
      this.bind(claim, callId);
      return;
    }
    const calls = this.unclaimedCalls.get(key) ?? [];
    calls.push(callId);
    this.unclaimedCalls.set(key, calls);
  }

  /**
   * Claim the call a hook invocation is about. Must be called synchronously on hook entry, for
   * every knowledge-search hook, even one that will not correct: an unclaimed id left in the
   * queue would be handed to the next identical call.
   */
  claim(toolName: string, args: unknown): CallClaim {
    const key = toolCallKey(toolName, args);
    const pending: PendingClaim = { settled: false };
    const callId = this.unclaimedCalls.get(key)?.shift();
    if (callId !== undefined) {
      pending.callId = callId;
    } else {
      const waiting = this.unboundClaims.get(key) ?? [];
      waiting.push(pending);
      this.unboundClaims.set(key, waiting);
    }
    return {
      settle: (record) => {
        if (pending.settled) return;
        pending.settled = true;
        pending.record = record;
        if (pending.callId !== undefined && record) this.records.set(pending.callId, record);
      },
    };
  }

  /** The corrective record of a call, once its hook has settled. */
  recordFor(callId: string): CorrectiveRecord | undefined {
    return this.records.get(callId);
  }

  private bind(claim: PendingClaim, callId: string): void {
    claim.callId = callId;
    if (claim.settled && claim.record) this.records.set(callId, claim.record);
  }
}
