import { endianness } from "node:os";
import {
  isTermIds,
  type LexicalImage,
  LexicalIndex,
  type TermIds,
  type TermSequence,
  type UnitTerms,
} from "./lexical-index.js";
import { isStoredDocumentHeader, type StoredDocument, type StoredDocumentHeader } from "./stored-document.js";

/**
 * A segment file of the stored index (store version 3), laid out so that a load does as little
 * as it can: the terms are 32-bit ids into the segment's own vocabulary (no string per term), the
 * sections' text is one UTF-8 block decoded at once and cut by length (no JSON string scanning),
 * and a collection stored in one segment keeps its lexical index's postings too, so opening it
 * builds no index at all (LexicalIndex.fromImage). The vocabulary is in order of first
 * occurrence, unit after unit, which is the order an index built from the documents gives its
 * terms: the segment's ids are the index's own.
 *
 * ```
 * "SLX3"                        magic (a version-2 segment is a JSON array: "[")
 * u32 H                         byte length of the header
 * H bytes                       header, UTF-8 JSON: { vocabulary: "<terms joined by spaces>",
 *                               documents: [... without their sections' terms and text],
 *                               text: <bytes of the text block>, postings?: P }
 * 0-3 zero bytes                to a multiple of 4
 * u32 × 2·S                     each section's title and body term counts, in document order
 * u32 × T                       the term ids, section after section, title then body
 * when the header has postings (V: the vocabulary's length):
 * u32 × (V + 1)                 where each term's postings start
 * u32 × P                       the postings' units (sections, counted through the segment)
 * u16 × P                       their title term frequencies
 * u16 × P                       their body term frequencies
 * u32 × S                       each section's text length, in UTF-16 code units
 * text bytes                    every section's text, UTF-8, one after the other
 * ```
 * Every integer is little-endian. Terms never hold a space (the packed form relies on it too).
 * The file's size follows from the header and the counts, and a load checks it, that every id
 * names a vocabulary entry, that the postings' bounds hold and that the text block decodes to
 * the lengths given.
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
  /** The documents gathered, in order (see `stored`). */
  private readonly added: StoredDocument[] = [];
  /** The lexical index `finish` stored with the segment, if it stored one. */
  private storedImage: LexicalImage | undefined;
  private readonly texts: string[] = [];
  private readonly textLengths: number[] = [];
  private textBytes = 0;
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
    const integers = this.counts.length + this.idCount + this.textLengths.length;
    return HEAD_BYTES + this.headerBytes + this.vocabularyBytes + this.textBytes + 4 * integers;
  }

  add(document: StoredDocument): void {
    this.added.push(document);
    const header: StoredDocumentHeader = {
      ...document,
      sections: document.sections.map(({ titleTerms, bodyTerms, content, ...section }) => {
        this.counts.push(this.append(titleTerms), this.append(bodyTerms));
        this.texts.push(content);
        this.textLengths.push(content.length);
        this.textBytes += Buffer.byteLength(content);
        return section;
      }),
    };
    const json = JSON.stringify(header);
    this.headers.push(json);
    this.headerBytes += Buffer.byteLength(json) + 1;
  }

  /**
   * The segment's bytes; with `postings`, the lexical index of its documents too (for a
   * collection that is this one segment: an index is of a whole collection).
   */
  finish(options: { postings?: boolean } = {}): Buffer {
    const image = options.postings ? this.image() : undefined;
    this.storedImage = image;
    const postings = image ? image.postingUnits.length : undefined;
    const text = Buffer.from(this.texts.join(""), "utf8");
    const header = Buffer.from(
      `{"vocabulary":${JSON.stringify(this.vocabulary.join(" "))},"documents":[${this.headers.join(",")}],"text":${text.length}${postings === undefined ? "" : `,"postings":${postings}`}}`,
      "utf8",
    );
    const padded = HEAD_BYTES + header.length + padding(header.length);
    const integers = this.counts.length + this.idCount + this.textLengths.length;
    const postingBytes = image ? postingsBytes(image.offsets.length, postings!) : 0;
    const out = Buffer.alloc(padded + 4 * integers + postingBytes + text.length);
    out.write(SEGMENT_MAGIC, 0, "latin1");
    out.writeUInt32LE(header.length, 4);
    header.copy(out, HEAD_BYTES);
    let at = writeUint32s(out, padded, this.counts);
    at = writeUint32s(out, at, this.ids.subarray(0, this.idCount));
    if (image) {
      at = writeUint32s(out, at, image.offsets);
      at = writeUint32s(out, at, image.postingUnits);
      at = writeUint16s(out, at, image.postingTitleTf);
      at = writeUint16s(out, at, image.postingBodyTf);
    }
    at = writeUint32s(out, at, this.textLengths);
    text.copy(out, at);
    return out;
  }

  /**
   * After `finish`: the documents gathered, each section's terms as ids into the segment's
   * vocabulary (views of the ids written), as a load of the segment would give them; and the
   * lexical index stored with them, if one was. An index built from these ids interns each
   * distinct term once, not every occurrence, and one built from the image interns nothing.
   */
  stored(): { documents: StoredDocument[]; image?: LexicalImage } {
    const ids = this.ids.subarray(0, this.idCount);
    let field = 0;
    let at = 0;
    const next = (): TermIds => {
      const count = this.counts[field++]!;
      const view = { vocabulary: this.vocabulary, ids: ids.subarray(at, at + count) };
      at += count;
      return view;
    };
    const documents = this.added.map((document) => ({
      ...document,
      sections: document.sections.map((section) => ({ ...section, titleTerms: next(), bodyTerms: next() })),
    }));
    return this.storedImage ? { documents, image: this.storedImage } : { documents };
  }

  /**
   * The lexical index of the documents gathered, from the segment's own ids: its terms are the
   * vocabulary in the same order (first occurrence), so its postings address the segment's ids.
   */
  private image(): LexicalImage | undefined {
    const units: UnitTerms[] = [];
    let at = 0;
    const ids = this.ids.subarray(0, this.idCount);
    for (let i = 0; i < this.counts.length; i += 2) {
      const title = ids.subarray(at, at + this.counts[i]!);
      at += this.counts[i]!;
      const body = ids.subarray(at, at + this.counts[i + 1]!);
      at += this.counts[i + 1]!;
      units.push({
        title: { vocabulary: this.vocabulary, ids: title },
        body: { vocabulary: this.vocabulary, ids: body },
      });
    }
    const image = LexicalIndex.build(units).image();
    // Never expected to differ (the orders are the same by construction); a segment without
    // postings is always right, one with the wrong ones never.
    return image?.terms.length === this.vocabulary.length ? image : undefined;
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

/** The bytes of the postings block: offsets, and per posting its unit and two frequencies. */
function postingsBytes(offsets: number, postings: number): number {
  return 4 * offsets + 8 * postings;
}

function writeUint32s(out: Buffer, at: number, values: ArrayLike<number> & Iterable<number>): number {
  if (LITTLE_ENDIAN && values instanceof Uint32Array) {
    Buffer.from(values.buffer, values.byteOffset, values.byteLength).copy(out, at);
    return at + values.byteLength;
  }
  let position = at;
  for (const value of values) position = out.writeUInt32LE(value, position);
  return position;
}

function writeUint16s(out: Buffer, at: number, values: Uint16Array): number {
  if (LITTLE_ENDIAN) {
    Buffer.from(values.buffer, values.byteOffset, values.byteLength).copy(out, at);
    return at + values.byteLength;
  }
  let position = at;
  for (const value of values) position = out.writeUInt16LE(value, position);
  return position;
}

/** Whether the bytes are a version-3 segment (else a version-2 JSON array, or neither). */
export function isBinarySegment(bytes: Uint8Array): boolean {
  return bytes.length >= HEAD_BYTES && Buffer.from(bytes.subarray(0, 4)).toString("latin1") === SEGMENT_MAGIC;
}

/** What a version-3 segment holds: its documents, and the lexical index of them when it was stored. */
export interface DecodedSegment {
  documents: StoredDocument[];
  image?: LexicalImage;
}

/**
 * The documents of a version-3 segment, their terms as views of `bytes` (no copy where the
 * platform is little-endian and the bytes are aligned), or why the segment cannot be trusted.
 */
export function decodeSegment(bytes: Buffer): DecodedSegment | { damaged: string } {
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
  const { documents, postings, text } = header;
  const vocabulary = header.vocabulary === "" ? [] : header.vocabulary.split(" ");
  const sections = documents.reduce((n, d) => n + d.sections.length, 0);
  const countsAt = HEAD_BYTES + headerLength + padding(headerLength);
  if (countsAt + 8 * sections > bytes.length) return { damaged: "is shorter than its term counts" };
  const counts = uint32s(bytes, countsAt, 2 * sections);
  let total = 0;
  // Indexed loops throughout: a cold process runs them once, before the JIT has compiled them,
  // and an iterator costs several times an index there.
  for (let i = 0; i < counts.length; i++) total += counts[i]!;
  const idsAt = countsAt + 8 * sections;
  const postingsAt = idsAt + 4 * total;
  const lengthsAt =
    postingsAt + (postings === undefined ? 0 : postingsBytes(vocabulary.length + 1, postings));
  const size = lengthsAt + 4 * sections + text;
  if (size !== bytes.length) return { damaged: `is ${bytes.length} bytes where its counts make ${size}` };
  const ids = uint32s(bytes, idsAt, total);
  const terms = vocabulary.length;
  for (let i = 0; i < ids.length; i++) {
    if (ids[i]! >= terms) return { damaged: "holds a term id past its vocabulary" };
  }
  let image: LexicalImage | undefined;
  if (postings !== undefined) {
    image = imageOf(bytes, postingsAt, vocabulary, counts, ids, postings);
    if (!image) return { damaged: "holds postings out of their bounds" };
  }
  const lengths = uint32s(bytes, lengthsAt, sections);
  const block = bytes.toString("utf8", lengthsAt + 4 * sections, bytes.length);
  let textTotal = 0;
  for (let i = 0; i < lengths.length; i++) textTotal += lengths[i]!;
  if (textTotal !== block.length) return { damaged: "holds text that does not decode to its lengths" };
  let field = 0;
  let at = 0;
  let section = 0;
  let textAt = 0;
  const next = (): TermIds => {
    const count = counts[field++]!;
    const view = { vocabulary, ids: ids.subarray(at, at + count) };
    at += count;
    return view;
  };
  const decoded = documents.map((document) => {
    const stored = document as unknown as StoredDocument;
    for (const part of stored.sections) {
      const length = lengths[section++]!;
      part.content = block.slice(textAt, textAt + length);
      textAt += length;
      part.titleTerms = next();
      part.bodyTerms = next();
    }
    return stored;
  });
  return image ? { documents: decoded, image } : { documents: decoded };
}

/**
 * The stored lexical index: views of the postings block, and each unit's lengths from the
 * counts; undefined when its offsets are not a run from 0 to the postings' count.
 */
function imageOf(
  bytes: Buffer,
  at: number,
  terms: readonly string[],
  counts: Uint32Array,
  streams: Uint32Array,
  postings: number,
): LexicalImage | undefined {
  const offsets = uint32s(bytes, at, terms.length + 1);
  if (offsets[0] !== 0 || offsets[terms.length] !== postings) return undefined;
  for (let t = 0; t < terms.length; t++) if (offsets[t]! > offsets[t + 1]!) return undefined;
  const unitsAt = at + 4 * offsets.length;
  const units = counts.length / 2;
  const postingUnits = uint32s(bytes, unitsAt, postings);
  for (let i = 0; i < postingUnits.length; i++) if (postingUnits[i]! >= units) return undefined;
  const titleLengths = new Uint32Array(units);
  const bodyLengths = new Uint32Array(units);
  for (let u = 0; u < units; u++) {
    titleLengths[u] = counts[2 * u]!;
    bodyLengths[u] = counts[2 * u + 1]!;
  }
  return {
    terms,
    titleLengths,
    bodyLengths,
    streams,
    offsets,
    postingUnits,
    postingTitleTf: uint16s(bytes, unitsAt + 4 * postings, postings),
    postingBodyTf: uint16s(bytes, unitsAt + 6 * postings, postings),
  };
}

/** `count` little-endian u16s at `offset`: a view where alignment and byte order allow, else a copy. */
function uint16s(bytes: Buffer, offset: number, count: number): Uint16Array {
  if (viewable(bytes, offset, 2)) return new Uint16Array(bytes.buffer, bytes.byteOffset + offset, count);
  return Uint16Array.from({ length: count }, (_, i) => bytes.readUInt16LE(offset + 2 * i));
}

/** `count` little-endian u32s at `offset`: a view where alignment and byte order allow, else a copy. */
function uint32s(bytes: Buffer, offset: number, count: number): Uint32Array {
  if (viewable(bytes, offset, 4)) return new Uint32Array(bytes.buffer, bytes.byteOffset + offset, count);
  return Uint32Array.from({ length: count }, (_, i) => bytes.readUInt32LE(offset + 4 * i));
}

/** Whether `bytes` at `offset` can be read in place as little-endian values `width` bytes wide. */
function viewable(bytes: Buffer, offset: number, width: number): boolean {
  return LITTLE_ENDIAN && (bytes.byteOffset + offset) % width === 0;
}

function isHeader(
  value: unknown,
): value is { vocabulary: string; documents: StoredDocumentHeader[]; text: number; postings?: number } {
  if (typeof value !== "object" || value === null) return false;
  const { vocabulary, documents, postings, text } = value as Record<string, unknown>;
  const count = (n: unknown) => Number.isInteger(n) && (n as number) >= 0;
  return (
    (postings === undefined || count(postings)) &&
    count(text) &&
    typeof vocabulary === "string" &&
    Array.isArray(documents) &&
    documents.every(isStoredDocumentHeader)
  );
}
