import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod";
import { TEXT_EXTRACTION_VERSION } from "../documents/text-extraction.js";
import type { LexicalImage } from "./lexical-index.js";
import { type DecodedSegment, decodeSegment, isBinarySegment, SegmentBuilder } from "./segment-codec.js";
import { isPackedStoredDocument, type StoredDocument } from "./stored-document.js";

/**
 * Bumped whenever the stored shape changes. Version 3 stores terms as ids (segment-codec.ts);
 * version 2's JSON segments are still read, and rewritten as version 3 by the next refresh
 * (`StoreLoad.version`). Any other version means "rebuild", never "misread".
 */
export const STORE_VERSION = 3;
/** The oldest version still read. */
const OLDEST_READ_VERSION = 2;
/**
 * A segment file is written once about this many bytes have gathered: far below V8's longest
 * string (~512 MB) for its header, so no collection size ever needs one string too long to exist,
 * and small enough that loading one costs a bounded amount of memory beside the documents it yields.
 */
export const SEGMENT_TARGET_BYTES = 32 * 1024 * 1024;
/** Loads started again when a concurrent save replaced the manifest mid-read (see inspect). */
const LOAD_ATTEMPTS = 5;

const SegmentEntry = z.strictObject({
  file: z.string().regex(/^[A-Za-z0-9%._-]+\.seg$/),
  bytes: z.number().int().nonnegative(),
  documents: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
const SkippedFileSchema = z.strictObject({
  path: z.string(),
  size: z.number(),
  mtimeMs: z.number(),
  reason: z.string(),
  /** The bounds it was refused under: raising them makes the next refresh try the file again. */
  limits: z.string(),
});
/** A file that could not be indexed, remembered so an unchanged one is not parsed again on every refresh. */
export type SkippedFile = z.output<typeof SkippedFileSchema>;

/** The language a collection without a `language` setting was found to be in (analysis/unset-language.ts). */
const DetectedLanguageSchema = z.strictObject({
  tag: z.string(),
  documents: z.number().int().nonnegative(),
  sampled: z.number().int().nonnegative(),
  /** The sample it was decided or last checked on (index/detected-language.ts sampleFingerprint). */
  sample: z.string().optional(),
});
export type StoredDetection = z.output<typeof DetectedLanguageSchema>;

const Manifest = z.strictObject({
  version: z.literal([OLDEST_READ_VERSION, STORE_VERSION]),
  analyzer: z.string(),
  /** For a collection with no `language`: the language detected and analysed in, and from what. */
  detected: DetectedLanguageSchema.optional(),
  /** The loaders' text extraction the documents came from (absent: 1, before it was recorded). */
  extraction: z.number().int().positive().optional(),
  collection: z.string(),
  documents: z.number().int().nonnegative(),
  segments: z.array(SegmentEntry),
  skipped: z.array(SkippedFileSchema),
});
type Manifest = z.output<typeof Manifest>;

/** What a load found: the documents, nothing yet, or an index that cannot be trusted (and why). */
export type StoreLoad =
  /**
   * `version`: the store version it was written in; an older one is rewritten by the next
   * refresh. `extractedBy`: the text extraction its documents came from; the files of the formats
   * a later one changed are read again by the next refresh (text-extraction.ts), the others kept.
   * `image`: the lexical index of exactly these documents, in this order, when the collection is
   * stored in one segment (segment-codec.ts).
   */
  | {
      state: "loaded";
      documents: StoredDocument[];
      skipped: SkippedFile[];
      version: number;
      extractedBy: number;
      image?: LexicalImage;
    }
  | { state: "missing" }
  | { state: "damaged"; reason: string }
  /**
   * Built by another analyzer (the collection's language changed, or its analysis did), or by a
   * newer version's text extraction than this one's (TEXT_EXTRACTION_VERSION): re-index.
   */
  | { state: "stale"; builtWith: string; cause: "analyzer" | "extraction" };

/** A collection as `IndexStore.save` wrote it: what a load of it would give (StoreLoad's "loaded"). */
export interface SavedCollection {
  documents: StoredDocument[];
  /** The lexical index of exactly these documents, in this order, when it was stored with them. */
  image?: LexicalImage;
}

/**
 * A collection's index on disk under `<bot>/.second-look/index/`: a small manifest
 * (`<collection>.manifest.json`: version, analyzer, and each segment's size, document count
 * and sha256) and segment files (segment-codec.ts) of at most about SEGMENT_TARGET_BYTES each.
 *
 * Writing: segments first, under a name no earlier save used, then the manifest through a
 * temporary file renamed into place — the one atomic step — then the previous save's segments
 * are removed. A crash (even `kill -9`) at any point leaves either the old manifest with all its
 * segments or the new one with all of its; the strays it leaves are removed by the next save.
 *
 * Loading checks everything it reads (manifest shape, versions, each segment's size, checksum,
 * document count and record shape), so a damaged or hand-edited index is reported as damaged
 * and rebuilt, never served.
 */
export class IndexStore {
  constructor(
    readonly directory: string,
    private readonly segmentBytes = SEGMENT_TARGET_BYTES,
  ) {}

  private manifestFile(collection: string): string {
    return join(this.directory, `${encodeURIComponent(collection)}.manifest.json`);
  }

  /**
   * The stored documents, or undefined when absent, not trustworthy or built by another analyzer
   * than `analyzer` (the collection's analysis id; see inspect for which).
   */
  async load(collection: string, analyzer: string): Promise<StoredDocument[] | undefined> {
    const found = await this.inspect(collection, analyzer);
    return found.state === "loaded" ? found.documents : undefined;
  }

  /**
   * Loads the collection. A save by another process may replace the manifest and remove the
   * segments it named while they are being read: a segment gone missing under a manifest that
   * has since changed is that race, not damage, and the load starts again from the new manifest
   * (at most LOAD_ATTEMPTS times).
   */
  async inspect(collection: string, analyzer: string): Promise<StoreLoad> {
    for (let attempt = 1; ; attempt++) {
      const read = await this.readManifest(collection);
      if (typeof read !== "string") return read;
      const found = await this.inspectManifest(read, analyzer);
      if (found.state !== "vanished") return found;
      const now = await this.readManifest(collection);
      if (attempt >= LOAD_ATTEMPTS || now === read) return { state: "damaged", reason: found.reason };
    }
  }

  /** The manifest's text, or what its absence means. */
  private async readManifest(collection: string): Promise<string | StoreLoad> {
    try {
      return await readFile(this.manifestFile(collection), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
        return { state: "damaged", reason: `cannot read the manifest: ${(error as Error).message}` };
      }
      return (await this.hasVersion1(collection))
        ? { state: "damaged", reason: "written by an older version (one JSON file)" }
        : { state: "missing" };
    }
  }

  private async inspectManifest(
    raw: string,
    analyzer: string,
  ): Promise<StoreLoad | { state: "vanished"; reason: string }> {
    let manifest: Manifest;
    try {
      const parsed = Manifest.safeParse(JSON.parse(raw));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return {
          state: "damaged",
          reason: `manifest has the wrong shape (${issue?.path.join(".") || "root"}: ${issue?.message})`,
        };
      }
      manifest = parsed.data;
    } catch (error) {
      return { state: "damaged", reason: `manifest is not JSON (${(error as Error).message})` };
    }
    if (manifest.analyzer !== analyzer)
      return { state: "stale", builtWith: manifest.analyzer, cause: "analyzer" };
    const extraction = manifest.extraction ?? 1;
    // Text a newer version extracted is not this version's: what it reads differently is not known here.
    if (extraction > TEXT_EXTRACTION_VERSION) {
      return { state: "stale", builtWith: `text extraction ${extraction}`, cause: "extraction" };
    }
    const documents: StoredDocument[] = [];
    let image: LexicalImage | undefined;
    for (const segment of manifest.segments) {
      let bytes: Buffer;
      try {
        bytes = await readFile(join(this.directory, segment.file));
      } catch (error) {
        const reason = `segment ${segment.file}: ${(error as Error).message}`;
        return (error as NodeJS.ErrnoException).code === "ENOENT"
          ? { state: "vanished", reason }
          : { state: "damaged", reason };
      }
      if (bytes.length !== segment.bytes) {
        return {
          state: "damaged",
          reason: `segment ${segment.file} is ${bytes.length} bytes, not ${segment.bytes}`,
        };
      }
      if (createHash("sha256").update(bytes).digest("hex") !== segment.sha256) {
        return { state: "damaged", reason: `segment ${segment.file} fails its checksum` };
      }
      const decoded = manifest.version === STORE_VERSION ? decodeSegment(bytes) : decodeJsonSegment(bytes);
      if ("damaged" in decoded)
        return { state: "damaged", reason: `segment ${segment.file} ${decoded.damaged}` };
      const records = decoded.documents;
      if (manifest.segments.length === 1 && decoded.image) image = decoded.image;
      if (records.length !== segment.documents) {
        return {
          state: "damaged",
          reason: `segment ${segment.file} does not hold ${segment.documents} documents`,
        };
      }
      for (const record of records) documents.push(record);
    }
    if (documents.length !== manifest.documents) {
      return {
        state: "damaged",
        reason: `${documents.length} documents found, manifest says ${manifest.documents}`,
      };
    }
    return {
      state: "loaded",
      documents,
      skipped: manifest.skipped,
      version: manifest.version,
      extractedBy: extraction,
      ...(image ? { image } : {}),
    };
  }

  /**
   * What the stored index of a collection with no `language` was analysed in (its manifest's
   * record of the detection, with the analyzer it was built by), or undefined when there is none
   * or it cannot be read: then the language is detected again.
   */
  async detection(collection: string): Promise<(StoredDetection & { analyzer: string }) | undefined> {
    const raw = await this.readManifest(collection);
    if (typeof raw !== "string") return undefined;
    try {
      const parsed = Manifest.safeParse(JSON.parse(raw));
      if (!parsed.success || !parsed.data.detected) return undefined;
      return { ...parsed.data.detected, analyzer: parsed.data.analyzer };
    } catch {
      return undefined;
    }
  }

  /**
   * Writes the collection (see the class comment) and returns its documents as a load of what
   * was written would: their terms as ids, with the lexical index when one was stored (a
   * collection of one segment), so an index of them is built without interning every term again.
   * `record.extraction`: the text extraction the documents came from (this version's unless a
   * run that stopped early kept documents an older one made); `record.detected`: the record of
   * an unset collection's detected language.
   */
  async save(
    collection: string,
    documents: readonly StoredDocument[],
    skipped: readonly SkippedFile[],
    analyzer: string,
    record: { detected?: StoredDetection; extraction?: number } = {},
  ): Promise<SavedCollection> {
    const { detected, extraction = TEXT_EXTRACTION_VERSION } = record;
    await mkdir(this.directory, { recursive: true });
    const prefix = encodeURIComponent(collection);
    // pid first: a stray file's owner can be told alive or dead when cleaning up.
    const generation = `${process.pid}-${randomBytes(4).toString("hex")}`;
    const segments: Manifest["segments"] = [];
    const written: string[] = [];
    const saved: StoredDocument[] = [];
    let image: LexicalImage | undefined;
    try {
      let builder = new SegmentBuilder();
      const flush = async (last = false) => {
        const file = `${prefix}.${generation}.${segments.length}.seg`;
        // A collection in one segment keeps its lexical index there: its next open builds none.
        const bytes = builder.finish({ postings: last && segments.length === 0 });
        const stored = builder.stored();
        for (const document of stored.documents) saved.push(document);
        image = stored.image;
        written.push(join(this.directory, file));
        await writeDurably(join(this.directory, file), bytes);
        segments.push({
          file,
          bytes: bytes.length,
          documents: builder.documents,
          sha256: createHash("sha256").update(bytes).digest("hex"),
        });
        builder = new SegmentBuilder();
      };
      for (const document of documents) {
        builder.add(document);
        if (builder.bytes >= this.segmentBytes) await flush();
      }
      if (builder.documents > 0 || segments.length === 0) await flush(true);
      const manifest: Manifest = {
        version: STORE_VERSION,
        analyzer,
        ...(detected ? { detected: { ...detected } } : {}),
        extraction,
        collection,
        documents: documents.length,
        segments,
        skipped: [...skipped],
      };
      const target = this.manifestFile(collection);
      const temporary = `${target}.${generation}.tmp`;
      written.push(temporary);
      await writeDurably(temporary, Buffer.from(JSON.stringify(manifest), "utf8"));
      await rename(temporary, target);
    } catch (error) {
      await Promise.all(written.map((path) => rm(path, { force: true })));
      throw error;
    }
    await this.removeStrays(collection, new Set(segments.map((s) => s.file)));
    return image ? { documents: saved, image } : { documents: saved };
  }

  /**
   * Removes the strays of earlier saves that no later save cleaned up — two runs saving at once
   * each leave the other's files while it lives — when a refresh has nothing to save. Only what
   * the current manifest does not name is removed, never a live process's files.
   */
  async removeStraysOf(collection: string): Promise<void> {
    const raw = await this.readManifest(collection);
    if (typeof raw !== "string") return;
    let keep: Set<string>;
    try {
      const parsed = Manifest.safeParse(JSON.parse(raw));
      if (!parsed.success) return;
      keep = new Set(parsed.data.segments.map((segment) => segment.file));
    } catch {
      return;
    }
    await this.removeStrays(collection, keep);
  }

  /**
   * Removes what no manifest points to: earlier saves' segments, temporary files and the
   * version-1 file. A file another live process is still writing (its pid in the name) is left.
   */
  private async removeStrays(collection: string, keep: ReadonlySet<string>): Promise<void> {
    const prefix = `${encodeURIComponent(collection)}.`;
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch {
      return;
    }
    await Promise.all(
      names
        .filter((name) => name.startsWith(prefix) && !keep.has(name))
        .filter((name) => name.endsWith(".seg") || name.endsWith(".tmp") || name === `${prefix}json`)
        .filter((name) => !ownedByAnotherLiveProcess(name.slice(prefix.length)))
        .map((name) => rm(join(this.directory, name), { force: true }).catch(() => undefined)),
    );
  }

  private async hasVersion1(collection: string): Promise<boolean> {
    return stat(join(this.directory, `${encodeURIComponent(collection)}.json`)).then(
      () => true,
      () => false,
    );
  }
}

/** Writes and fsyncs, so a rename that follows never publishes a file whose bytes are still in flight. */
async function writeDurably(path: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(path, "w");
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** `<pid>-<hex>.…`: true when that pid is a live process other than this one. */
function ownedByAnotherLiveProcess(rest: string): boolean {
  const pid = Number(/^(\d+)-/.exec(rest)?.[1]);
  if (!Number.isInteger(pid) || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The documents of a version-2 segment (a JSON array of documents with packed terms). */
function decodeJsonSegment(bytes: Buffer): DecodedSegment | { damaged: string } {
  if (isBinarySegment(bytes)) return { damaged: "is not a segment of the manifest's version" };
  let records: unknown;
  try {
    records = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    return { damaged: `is not JSON (${(error as Error).message})` };
  }
  if (!Array.isArray(records)) return { damaged: "is not a list of documents" };
  if (!records.every(isPackedStoredDocument)) return { damaged: "holds a record of the wrong shape" };
  return { documents: records };
}
