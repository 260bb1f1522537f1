// In-process search calls waiting for their corrective pass, by the call's identity: a key built
// from its arguments (the tool handler and the hook that later sees its result both carry them),
// oldest first within a key. A pass runs right after its tool, so few are kept; one pushed out,
// or replaced by the same search rendered to the same text, has no pass coming and its tool span
// ends. The text only confirms the match (the runtime may have changed it since); it is never
// the key, so a 16 MiB result is compared once, not hashed into a map.

import type { SearchCall } from "../corrective/search-call.js";

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
