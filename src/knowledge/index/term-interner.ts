/**
 * One string object per distinct term. A collection's term streams repeat a vocabulary of tens
 * of thousands of words hundreds of millions of times; sharing one string per word keeps a
 * large collection's term arrays at a pointer per occurrence instead of a string per occurrence.
 */
export class TermInterner {
  private readonly terms = new Map<string, string>();

  intern(term: string): string {
    const known = this.terms.get(term);
    if (known !== undefined) return known;
    this.terms.set(term, term);
    return term;
  }

  /** Terms joined by single spaces (the stored and transferred form) back to an interned array. */
  split(joined: string): string[] {
    if (joined === "") return [];
    const parts = joined.split(" ");
    for (let i = 0; i < parts.length; i++) parts[i] = this.intern(parts[i]!);
    return parts;
  }
}
