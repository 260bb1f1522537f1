// The one place a search call waits to be taken back, and why: the Copilot SDK runs our tool's
// handler and the session's onPostToolUse hook as two separate callbacks, and hands the hook only
// the tool's name, its arguments and the result text — no call id, no value the handler returned
// besides that text. So the handler leaves its `SearchCall` (arguments, scope, structured
// response, open span) with its session, keyed by the call's identity (the tool name and the
// canonical arguments, call-key.ts), oldest first within a key, and the hook takes it back. A
// pass runs right after its tool, so few are kept; one pushed out, or replaced by the same search
// rendered to the same text, has no pass coming and its tool span ends. The text only confirms
// the match (the runtime may have changed it since); it is never the key, so a 16 MiB result is
// compared once, not hashed into a map. The MCP tool, `search` and `eval` hold their call and
// need none of this.

import type { SearchCall } from "../../corrective/search-call.js";

/** Rendered calls remembered for their pass; a pass runs right after its tool, so few are needed. */
export const REMEMBERED_CALLS = 256;

export class RememberedCalls {
  private readonly byKey = new Map<string, SearchCall[]>();
  /** Every remembered call, oldest first, for the bound. */
  private readonly order: { key: string; call: SearchCall }[] = [];

  constructor(private readonly capacity: number = REMEMBERED_CALLS) {}

  remember(key: string, call: SearchCall): void {
    const earlier = this.byKey.get(key)?.find((c) => c.text === call.text);
    if (earlier) this.forget(key, earlier)?.toolSpan?.endAtResult();
    while (this.order.length >= this.capacity) {
      const oldest = this.order[0]!;
      this.forget(oldest.key, oldest.call)?.toolSpan?.endAtResult();
    }
    this.order.push({ key, call });
    this.byKey.set(key, [...(this.byKey.get(key) ?? []), call]);
  }

  /** The oldest call under `key` whose text is `text`, no longer remembered; undefined when none is. */
  take(key: string, text: string): SearchCall | undefined {
    const call = this.byKey.get(key)?.find((c) => c.text === text);
    return call ? this.forget(key, call) : undefined;
  }

  get size(): number {
    return this.order.length;
  }

  private forget(key: string, call: SearchCall): SearchCall | undefined {
    const at = this.order.findIndex((entry) => entry.call === call);
    if (at < 0) return undefined;
    this.order.splice(at, 1);
    const rest = (this.byKey.get(key) ?? []).filter((c) => c !== call);
    if (rest.length > 0) this.byKey.set(key, rest);
    else this.byKey.delete(key);
    return call;
  }
}
