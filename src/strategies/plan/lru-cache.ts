// A small LRU with a time-to-live (docs/reference/vectorless-strategies.md §5.6 semantics): get refreshes recency, an
// expired entry is dropped on access and counts as a miss, set evicts the least recent.

export interface CacheStats {
  hits: number;
  misses: number;
  evictions: number;
  entries: number;
  maxEntries: number;
}

export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  private readonly stats = { hits: 0, misses: 0, evictions: 0 };

  constructor(
    readonly maxEntries: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.expires <= this.now()) {
      if (entry) this.entries.delete(key);
      this.stats.misses++;
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.stats.hits++;
    return entry.value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) {
        this.entries.delete(oldest.value);
        this.stats.evictions++;
      }
    }
    this.entries.set(key, { value, expires: this.now() + this.ttlMs });
  }

  clear(): void {
    this.entries.clear();
  }

  snapshot(): CacheStats {
    return { ...this.stats, entries: this.entries.size, maxEntries: this.maxEntries };
  }
}
