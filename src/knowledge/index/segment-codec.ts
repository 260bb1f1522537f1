import { endianness } from "node:os";
import { isTermIds, type TermIds, type TermSequence } from "./lexical-index.js";
import { isStoredDocumentHeader, type StoredDocument, type StoredDocumentHeader } from "./stored-document.js";

/**
 * A segment file of the stored index (store version 3): the documents as JSON without their
 * terms, and the terms as 32-bit ids into the segment's own vocabulary, so a load makes no
 * string per term and builds the lexical index from typed-array views of the file.
 *
 * ```
 * "SLX3"                        magic (a version-2 segment is a JSON array: "[")
 * u32 H                         byte length of the header
 * H bytes                       header, UTF-8 JSON: { vocabulary: string[], documents: [...] }
 * 0-3 zero bytes                to a multiple of 4
 * u32 × 2·S                     each section's title and body term counts, in document order
 * u32 × T                       the term ids, section after section, title then body
 * ```
 * Every integer is little-endian. The file's size follows from the header and the counts, and a
 * load checks it, and that every id names a vocabulary entry.
 */
export const SEGMENT_MAGIC = "SLX3";
const HEAD_BYTES = 8;
const LITTLE_ENDIAN = endianness() === "LE";

/**
 * Gathers documents into one segment: their terms interned into the segment's vocabulary as they
 * come, so `bytes` tracks the file's size closely enough to cut segments by it.
 */
export class SegmentBuilder {
  private readonly termIds = new Map<string, number>();
  private readonly vocabulary: string[] = [];
  /** Per vocabulary of loaded documents: its ids as this segment's (-1: not met yet). */
  private readonly remaps = new Map<readonly string[], Int32Array>();
  private readonly headers: string[] = [];
  private counts: number[] = [];
  private ids = new Uint32Array(4096);
  private idCount = 0;
  private vocabularyBytes = 0;
  private headerBytes = 0;

  get documents(): number {
    return this.headers.length;
  }

  /** About the size of the file `finish` would write now. */
  get bytes(): number {
    return HEAD_BYTES + this.headerBytes + this.vocabularyBytes + 4 * (this.counts.length + this.idCount);
  }

  add(document: StoredDocument): void {
    const header: StoredDocumentHeader = {
      ...document,
      sections: document.sections.map(({ titleTerms, bodyTerms, ...section }) => {
        this.counts.push(this.append(titleTerms), this.append(bodyTerms));
        return section;
      }),
    };
    const json = JSON.stringify(header);
    this.headers.push(json);
    this.headerBytes += Buffer.byteLength(json) + 1;
  }

  /** The segment's bytes. */
  finish(): Buffer {
    const header = Buffer.from(
      `{"vocabulary":${JSON.stringify(this.vocabulary)},"documents":[${this.headers.join(",")}]}`,
      "utf8",
    );
    const padded = HEAD_BYTES + header.length + padding(header.length);
    const out = Buffer.alloc(padded + 4 * (this.counts.length + this.idCount));
    out.write(SEGMENT_MAGIC, 0, "latin1");
    out.writeUInt32LE(header.length, 4);
    header.copy(out, HEAD_BYTES);
    let at = padded;
    for (const count of this.counts) {
      out.writeUInt32LE(count, at);
      at += 4;
    }
    if (LITTLE_ENDIAN) Buffer.from(this.ids.buffer, 0, 4 * this.idCount).copy(out, at);
    else for (let i = 0; i < this.idCount; i++) out.writeUInt32LE(this.ids[i]!, at + 4 * i);
    return out;
  }

  /** Appends a field's ids; returns how many. */
  private append(terms: TermSequence): number {
    const before = this.idCount;
    if (isTermIds(terms)) {
      const remap = this.remapOf(terms.vocabulary);
      for (const local of terms.ids) {
        let id = remap[local]!;
        if (id === -1) {
          id = this.idOf(terms.vocabulary[local]!);
          remap[local] = id;
        }
        this.push(id);
      }
    } else if (typeof terms === "string") {
      if (terms !== "") for (const term of terms.split(" ")) this.push(this.idOf(term));
    } else {
      for (const term of terms) this.push(this.idOf(term));
    }
    return this.idCount - before;
  }

  private remapOf(vocabulary: readonly string[]): Int32Array {
    let remap = this.remaps.get(vocabulary);
    if (!remap) {
      remap = new Int32Array(vocabulary.length).fill(-1);
      this.remaps.set(vocabulary, remap);
    }
    return remap;
  }

  private idOf(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.vocabulary.length;
      this.termIds.set(term, id);
      this.vocabulary.push(term);
      this.vocabularyBytes += Buffer.byteLength(term) + 3;
    }
    return id;
  }

  private push(id: number): void {
    if (this.idCount === this.ids.length) {
      const grown = new Uint32Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.idCount++] = id;
  }
}

function padding(length: number): number {
  return (4 - ((HEAD_BYTES + length) % 4)) % 4;
}

/** Whether the bytes are a version-3 segment (else a version-2 JSON array, or neither). */
export function isBinarySegment(bytes: Uint8Array): boolean {
  return bytes.length >= HEAD_BYTES && Buffer.from(bytes.subarray(0, 4)).toString("latin1") === SEGMENT_MAGIC;
}

/**
 * The documents of a version-3 segment, their terms as views of `bytes` (no copy where the
 * platform is little-endian and the bytes are aligned), or why the segment cannot be trusted.
 */
export function decodeSegment(bytes: Buffer): StoredDocument[] | { damaged: string } {
  if (!isBinarySegment(bytes)) return { damaged: "is not a segment of this version" };
  const headerLength = bytes.readUInt32LE(4);
  if (HEAD_BYTES + headerLength > bytes.length) return { damaged: "is shorter than its header" };
  let header: unknown;
  try {
    header = JSON.parse(bytes.toString("utf8", HEAD_BYTES, HEAD_BYTES + headerLength));
  } catch (error) {
    return { damaged: `has a header that is not JSON (${(error as Error).message})` };
  }
  if (!isHeader(header)) return { damaged: "has a header of the wrong shape" };
  const { vocabulary, documents } = header;
  const sections = documents.reduce((n, d) => n + d.sections.length, 0);
  const countsAt = HEAD_BYTES + headerLength + padding(headerLength);
  if (countsAt + 8 * sections > bytes.length) return { damaged: "is shorter than its term counts" };
  const counts = uint32s(bytes, countsAt, 2 * sections);
  let total = 0;
  for (const count of counts) total += count;
  const idsAt = countsAt + 8 * sections;
  if (idsAt + 4 * total !== bytes.length) {
    return { damaged: `is ${bytes.length} bytes where its counts make ${idsAt + 4 * total}` };
  }
  const ids = uint32s(bytes, idsAt, total);
  for (const id of ids)
    if (id >= vocabulary.length) return { damaged: "holds a term id past its vocabulary" };
  let field = 0;
  let at = 0;
  const next = (): TermIds => {
    const count = counts[field++]!;
    const view = { vocabulary, ids: ids.subarray(at, at + count) };
    at += count;
    return view;
  };
  return documents.map((document) => {
    const stored = document as unknown as StoredDocument;
    for (const section of stored.sections) {
      section.titleTerms = next();
      section.bodyTerms = next();
    }
    return stored;
  });
}

/** `count` little-endian u32s at `offset`: a view where alignment and byte order allow, else a copy. */
function uint32s(bytes: Buffer, offset: number, count: number): Uint32Array {
  if (LITTLE_ENDIAN && (bytes.byteOffset + offset) % 4 === 0) {
    return new Uint32Array(bytes.buffer, bytes.byteOffset + offset, count);
  }
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) out[i] = bytes.readUInt32LE(offset + 4 * i);
  return out;
}

function isHeader(value: unknown): value is { vocabulary: string[]; documents: StoredDocumentHeader[] } {
  if (typeof value !== "object" || value === null) return false;
  const { vocabulary, documents } = value as Record<string, unknown>;
  return (
    Array.isArray(vocabulary) &&
    vocabulary.every((term) => typeof term === "string") &&
    Array.isArray(documents) &&
    documents.every(isStoredDocumentHeader)
  );
}
