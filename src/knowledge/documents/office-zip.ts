// The zip container of Office Open XML (.docx, .pptx, .xlsx), OpenDocument (.odt, .odp, .ods)
// and EPUB files, read with yauzl: a pure-JS reader (one small dependency, no native code, no
// install script) that checks every entry's inflated size against the size it declares and stops
// the inflate stream the moment it is passed. On top of that this reader bounds a hostile file:
// the entry count is checked before any entry is listed, a part is inflated only when the loader
// asks for it, and the declared and the actual inflated bytes are capped per part and in total,
// so a zip bomb costs at most the caps, never its own claim.

import yauzl from "yauzl";
import { errorMessage } from "../../errors.js";
import { KnowledgeError } from "../knowledge-error.js";

/** Entries in one archive beyond this refuse the file (a long EPUB has a few thousand). */
export const MAX_ZIP_ENTRIES = 10_000;
/** Inflated bytes of one part (one XML file) beyond this refuse the file. */
export const MAX_PART_BYTES = 64 * 1024 * 1024;
/** Inflated bytes of every part one file reads, together, beyond this refuse the file. */
export const MAX_INFLATED_BYTES = 128 * 1024 * 1024;

/** An Office, OpenDocument or EPUB file that cannot be read; the message says what is wrong. */
export class OfficeParseError extends KnowledgeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("office-parse", message, options);
    this.name = "OfficeParseError";
  }
}

export interface ZipLimits {
  maxEntries: number;
  maxPartBytes: number;
  maxInflatedBytes: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: MAX_ZIP_ENTRIES,
  maxPartBytes: MAX_PART_BYTES,
  maxInflatedBytes: MAX_INFLATED_BYTES,
};

/** Wall-clock bound shared by every step of one file's parse. */
export class WorkClock {
  private readonly endsAt: number;
  constructor(readonly timeoutMs: number) {
    this.endsAt = Date.now() + timeoutMs;
  }
  check(): void {
    if (Date.now() > this.endsAt) throw new OfficeParseError(`parsing took longer than ${this.timeoutMs} ms`);
  }
}

/**
 * An opened archive: its entry names, and each part read on demand (as UTF-8 text, within the
 * limits). Names are kept as the archive spells them; lookups are exact, as in the formats.
 */
export class ZipParts {
  private inflated = 0;
  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly entries: ReadonlyMap<string, yauzl.Entry>,
    private readonly limits: ZipLimits,
    private readonly clock: WorkClock,
  ) {}

  static async open(
    bytes: Uint8Array,
    clock: WorkClock,
    limits: ZipLimits = DEFAULT_ZIP_LIMITS,
  ): Promise<ZipParts> {
    let zip: yauzl.ZipFile;
    try {
      zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
        lazyEntries: true,
        validateEntrySizes: true,
        strictFileNames: false,
      });
    } catch (error) {
      throw new OfficeParseError(`not a readable zip archive (${errorMessage(error)})`, { cause: error });
    }
    if (zip.entryCount > limits.maxEntries) {
      zip.close();
      throw new OfficeParseError(`${zip.entryCount} entries in the archive (limit ${limits.maxEntries})`);
    }
    const entries = await listEntries(zip, limits.maxEntries, clock);
    return new ZipParts(zip, entries, limits, clock);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The part as text; undefined when the archive has no such entry. */
  async text(name: string): Promise<string | undefined> {
    const entry = this.entries.get(name);
    if (!entry) return undefined;
    if (entry.isEncrypted()) throw new OfficeParseError(`"${name}" is encrypted`);
    const declared = entry.uncompressedSize;
    if (declared > this.limits.maxPartBytes) {
      throw new OfficeParseError(
        `"${name}" inflates to ${declared} bytes (limit ${this.limits.maxPartBytes} per part)`,
      );
    }
    if (this.inflated + declared > this.limits.maxInflatedBytes) {
      throw new OfficeParseError(`the parts read inflate to over ${this.limits.maxInflatedBytes} bytes`);
    }
    this.clock.check();
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      const stream = await this.zip.openReadStreamPromise(entry);
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          size += chunk.length;
          // validateEntrySizes already fails a stream past its declared size; this holds even so.
          if (size > declared)
            throw new OfficeParseError(`"${name}" inflates past its declared ${declared} bytes`);
          this.clock.check();
          chunks.push(chunk);
        }
      } finally {
        stream.destroy();
      }
    } catch (error) {
      if (error instanceof OfficeParseError) throw error;
      throw new OfficeParseError(`cannot inflate "${name}" (${errorMessage(error)})`, { cause: error });
    }
    this.inflated += size;
    return new TextDecoder("utf-8").decode(Buffer.concat(chunks, size));
  }

  /** The part as text; a missing part refuses the file, naming it. */
  async required(name: string): Promise<string> {
    const text = await this.text(name);
    if (text === undefined) throw new OfficeParseError(`the archive has no "${name}"`);
    return text;
  }

  close(): void {
    this.zip.close();
  }
}

/** Every entry's metadata (nothing inflated), at most `max` of them. */
function listEntries(zip: yauzl.ZipFile, max: number, clock: WorkClock): Promise<Map<string, yauzl.Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, yauzl.Entry>();
    const fail = (error: unknown) => {
      zip.close();
      reject(
        error instanceof OfficeParseError
          ? error
          : new OfficeParseError(`not a readable zip archive (${errorMessage(error)})`, { cause: error }),
      );
    };
    zip.on("error", fail);
    zip.on("end", () => resolve(entries));
    zip.on("entry", (entry: yauzl.Entry) => {
      try {
        clock.check();
        if (entries.size >= max) throw new OfficeParseError(`over ${max} entries in the archive`);
        if (!entry.fileName.endsWith("/")) entries.set(entry.fileName, entry);
        zip.readEntry();
      } catch (error) {
        fail(error);
      }
    });
    zip.readEntry();
  });
}
