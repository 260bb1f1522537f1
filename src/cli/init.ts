// `second-look init <folder> [--from <docs>]`: a working bot from a folder of documents in one
// command — the formats found, the documents' language detected, a config.json with corrective
// retrieval on (signal grader), the default persona written out to edit, the index built, and
// the next three commands printed.
import { existsSync } from "node:fs";
import { cp, mkdir, stat, writeFile } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { glob } from "tinyglobby";
import { resolveBot } from "../bots/bot-resolver.js";
import { type BotConfig, COLLECTION_NAME, DEFAULT_PERSONA_FILE } from "../bots/config-schema.js";
import { CONFIG_FILE } from "../bots/discovery.js";
import { defaultPersona } from "../bots/persona.js";
import { languageDetector } from "../knowledge/analysis/detect.js";
import {
  chooseCollectionLanguage,
  type LanguageChoice,
  LanguageSample,
  sampleMembers,
} from "../knowledge/analysis/unset-language.js";
import { templateProblem } from "../knowledge/document-links.js";
import {
  countByExtension,
  describeUnreadTypes,
  documentExtension,
  documentFormatFor,
  GZIP_EXTENSION,
  SUPPORTED_EXTENSIONS,
} from "../knowledge/documents/document-format.js";
import { isLexicallyInside, resolvedPath } from "../knowledge/documents/inside-folder.js";
import type { RefreshReport } from "../knowledge/index/refresh.js";
import {
  ALWAYS_EXCLUDED,
  IngestPool,
  ingestLimits,
  MAX_FILES_PER_COLLECTION,
} from "../knowledge/ingest-core.js";
import { CliError } from "./cli-error.js";
import { indexBot, summary } from "./index-bot.js";
import { plural, terminalText } from "./terminal-text.js";

export interface InitOptions {
  from?: string;
  /** Where the documents are published: the collection's `url` template (`https://…/{path}`). */
  url?: string;
  force?: boolean;
  json: boolean;
}

/** The stable `--json` shape (fields are only ever added). */
export interface InitJson {
  bot: string;
  dir: string;
  config: string;
  collection: string;
  /** "referenced": the documents were inside the bot folder already; "copied": into `documents/`. */
  documents: "referenced" | "copied";
  files: number;
  /** Files per format (markdown, html, text, pdf, …). */
  formats: Record<string, number>;
  language: string;
  collections: RefreshReport[];
  next: string[];
  /** Files under the documents' folder that are no document the loaders read, per extension ("" for none). */
  notRead: Record<string, number>;
  /** The collection's `url` template, when `--url` gave one. */
  url?: string;
}

/** Where copied documents go inside the bot folder. */
export const COPIED_DOCUMENTS_FOLDER = "documents";

export async function runInit(
  folderArg: string,
  options: InitOptions,
  io: { stdout: NodeJS.WritableStream; cwd?: string },
): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  const dir = resolve(cwd, folderArg);
  const configFile = join(dir, CONFIG_FILE);
  if (existsSync(configFile) && !options.force) {
    throw new CliError(
      `${configFile} already exists: init does not overwrite a bot (--force replaces its ${CONFIG_FILE} and ${DEFAULT_PERSONA_FILE})`,
    );
  }
  // Checked before anything is copied or written, by the rule config.json's schema applies.
  const urlProblem = options.url === undefined ? undefined : templateProblem(options.url);
  if (urlProblem !== undefined) throw new CliError(`--url ${JSON.stringify(options.url)} ${urlProblem}`);
  const from = resolve(cwd, options.from ?? folderArg);
  await mustBeFolder(from, options.from === undefined ? "<folder>" : "--from");
  // Both folders as the file system resolves them, as the bot compares what it reads with its
  // folder (src/knowledge/documents/inside-folder.ts).
  const [realDir, realFrom] = await Promise.all([resolvedPath(dir), resolvedPath(from)]);
  // Not documents: the persona init writes (a folder that is its own documents keeps it beside
  // them), and the bot folder itself when it lies inside --from (its copies would be copied again).
  const ownFiles = isLexicallyInside(realDir, realFrom)
    ? `${slashed(relative(realFrom, realDir))}/`
    : undefined;
  const listed = await folderFiles(from);
  const theirs = (f: string) =>
    (realFrom !== realDir || f !== DEFAULT_PERSONA_FILE) && !(ownFiles && f.startsWith(ownFiles));
  const found = listed.documents.filter(theirs);
  const notRead = countByExtension(listed.others.filter(theirs));
  if (found.length === 0) {
    const other = Object.keys(notRead).length > 0 ? `; it holds ${describeUnreadTypes(notRead)}` : "";
    throw new CliError(
      `no documents in ${from}: init reads ${SUPPORTED_EXTENSIONS.join(", ")} files (in sub-folders too, and the text ones compressed as ${GZIP_EXTENSION})${other}`,
    );
  }
  const inside = realFrom === realDir || isLexicallyInside(realFrom, realDir);
  const place = await placeDocuments(
    dir,
    from,
    found,
    inside ? slashed(relative(realDir, realFrom)) : undefined,
  );
  const collection = collectionName(from);
  const language = await detectLanguage(place.files);
  const formats = countFormats(found);
  const name = basename(dir);
  const config: { description: string } & Record<string, unknown> = botConfig(dir, {
    collection,
    globs: place.globs,
    exclude: place.exclude,
    language: language.language,
    formats,
    from,
    ...(options.url !== undefined ? { url: options.url } : {}),
  });
  await mkdir(dir, { recursive: true });
  await writeFile(configFile, `${JSON.stringify(config, null, 2)}\n`);
  await writeFile(
    join(dir, DEFAULT_PERSONA_FILE),
    `${defaultPersona(name, { description: config.description } as BotConfig)}\n`,
  );

  const bot = await resolveBot(dir, { quiet: options.json, cwd });
  const { reports } = await indexBot(bot, { progress: !options.json });
  const next = nextCommands(relativeRef(cwd, dir), sampleQuery(language.titles));
  if (options.json) {
    const json: InitJson = {
      bot: bot.name,
      dir,
      config: configFile,
      collection,
      documents: place.copied ? "copied" : "referenced",
      files: found.length,
      formats,
      language: language.language,
      collections: reports,
      next,
      notRead,
      ...(options.url !== undefined ? { url: options.url } : {}),
    };
    io.stdout.write(`${JSON.stringify(json)}\n`);
    return 0;
  }
  const lines = [
    `wrote ${configFile} and ${join(dir, DEFAULT_PERSONA_FILE)}`,
    `${collection}: ${plural(found.length, "document")} (${describeFormats(formats)}) ${place.copied ? `copied from ${from} into ${join(dir, COPIED_DOCUMENTS_FOLDER)}` : `read where they are, under ${from}`}`,
    ...(Object.keys(notRead).length > 0 ? [`not read: ${describeUnreadTypes(notRead)}`] : []),
    `language: ${describeLanguage(language)}`,
    ...(options.url !== undefined ? linkLines(options.url, collection, formats) : []),
    "correctiveRetrieval: on (grader=signal, budget=1)",
    ...reports.map(summary),
    "",
    "next:",
    ...next.map((command) => `  ${command}`),
  ];
  io.stdout.write(terminalText(`${lines.join("\n")}\n`));
  return 0;
}

async function mustBeFolder(path: string, what: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isDirectory()) throw new CliError(`${what} ${path} is not a folder of documents`);
}

/**
 * The files under `root`, relative paths with forward slashes, sorted: the documents the loaders
 * read, and the others (said, not read). As the indexer takes a collection's files: never our own
 * state or dependency trees, and no more than its cap on a collection's files (a folder of
 * documents, not a disk; init refuses past it).
 */
async function folderFiles(root: string): Promise<{ documents: string[]; others: string[] }> {
  const files = await glob(["**/*"], {
    cwd: root,
    ignore: ALWAYS_EXCLUDED,
    onlyFiles: true,
    followSymbolicLinks: false,
    expandDirectories: false,
    dot: false,
  });
  const documents: string[] = [];
  const others: string[] = [];
  for (const file of files.sort()) (documentFormatFor(file) !== undefined ? documents : others).push(file);
  if (documents.length > MAX_FILES_PER_COLLECTION) {
    throw new CliError(
      `${root} holds ${documents.length} documents; init takes at most ${MAX_FILES_PER_COLLECTION}`,
    );
  }
  return { documents, others };
}

interface Placed {
  copied: boolean;
  /** The collection's `paths`, relative to the bot folder. */
  globs: string[];
  /** Globs the collection leaves out: the persona, when the bot folder is its documents' folder. */
  exclude: string[];
  /** The documents as the bot reads them: where they are, and their ids (relative to the bot folder). */
  files: { absPath: string; id: string }[];
}

/**
 * Documents inside the bot folder (at `inside`, relative to it; "" for the bot folder itself) are
 * read where they are (a glob relative to it). Documents elsewhere (`inside` undefined) are
 * copied into `<bot>/documents/`: a bot reads only files inside its own folder (a document id
 * never climbs out of it, src/knowledge/documents/document-id.ts), and a folder that holds its
 * documents can be moved, committed or deployed as one.
 */
async function placeDocuments(
  dir: string,
  from: string,
  found: readonly string[],
  inside: string | undefined,
): Promise<Placed> {
  const isInside = inside !== undefined;
  const extensions = [...new Set(found.map((f) => documentExtension(f)!.slice(1)))].sort();
  const pattern = extensions.length === 1 ? `*.${extensions[0]}` : `*.{${extensions.join(",")}}`;
  const base = inside ?? COPIED_DOCUMENTS_FOLDER;
  const target = isInside ? from : join(dir, COPIED_DOCUMENTS_FOLDER);
  if (!isInside) {
    if (existsSync(target)) {
      throw new CliError(
        `${target} already exists: init copies the documents there; remove it or name another bot folder`,
      );
    }
    for (const file of found) {
      const to = join(target, file);
      await mkdir(dirname(to), { recursive: true });
      await cp(join(from, file), to, { errorOnExist: true, force: false });
    }
  }
  return {
    copied: !isInside,
    globs: [base ? `${base}/**/${pattern}` : `**/${pattern}`],
    exclude: base ? [] : [DEFAULT_PERSONA_FILE],
    files: found.map((f) => ({ absPath: join(target, f), id: base ? `${base}/${f}` : f })),
  };
}

/** A relative path with forward slashes, as globs and document ids write it. */
function slashed(path: string): string {
  return path.split(sep).join("/");
}

/** The collection's name: the documents folder's name as a slug, else "docs". */
export function collectionName(from: string): string {
  const slug = basename(from)
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[-_]+|[-_]+$/g, "")
    .slice(0, 64);
  return COLLECTION_NAME.test(slug) ? slug : "docs";
}

/**
 * The documents' language, from a sample parsed in the indexer's own parser threads (under its
 * time and memory bounds): the documents whose ids rank lowest, the sample indexing detects a
 * collection's language from when it sets none.
 */
async function detectLanguage(
  files: readonly { absPath: string; id: string }[],
): Promise<LanguageChoice & { titles: string[] }> {
  const sample = new LanguageSample();
  const pool = IngestPool.shared(ingestLimits());
  const titles: string[] = [];
  const picked = pickSample(files);
  await Promise.all(
    picked.map(async ({ absPath, id }) => {
      const result = await pool.ingest({ absPath, id });
      if (!result.ok || result.unchanged) return;
      titles.push(result.document.title);
      sample.offer(id, result.document);
    }),
  );
  return { ...chooseCollectionLanguage(sample.texts, await languageDetector()), titles };
}

/** The documents whose ids rank lowest in the sample (`sampleMembers`), as many as it keeps. */
export function pickSample<T extends { id: string }>(files: readonly T[]): T[] {
  return sampleMembers(files);
}

function countFormats(files: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const file of files) {
    const format = documentFormatFor(file)!;
    counts[format] = (counts[format] ?? 0) + 1;
  }
  return counts;
}

function describeFormats(formats: Record<string, number>): string {
  return Object.entries(formats)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([format, n]) => `${n} ${format}`)
    .join(", ");
}

function describeLanguage(choice: LanguageChoice): string {
  const f = choice.finding;
  if (!f) return `${choice.language} (the sampled documents read as English)`;
  const read = `${f.documents} of ${f.sampled} sampled documents read as ${f.name}, ${f.english} as English`;
  return `${choice.language} (${read}; knowledge.collections.<name>.language changes it)`;
}

/** The package's config.schema.json (two folders up from src/cli/ and dist/cli/ alike). */
const SCHEMA_FILE = fileURLToPath(new URL("../../config.schema.json", import.meta.url));

/** config.json as init writes it: every choice explicit, so the owner sees what to change. */
function botConfig(
  dir: string,
  c: {
    collection: string;
    globs: string[];
    exclude: string[];
    language: string;
    formats: Record<string, number>;
    from: string;
    url?: string;
  },
): { description: string } & Record<string, unknown> {
  return {
    $schema: slashed(relative(dir, SCHEMA_FILE)),
    description: `Answers questions from the documents in ${basename(c.from)} (${describeFormats(c.formats)}). Written by second-look init; the $schema file describes every key.`,
    persona: DEFAULT_PERSONA_FILE,
    knowledge: {
      backend: "embedded",
      collections: {
        [c.collection]: {
          paths: c.globs,
          ...(c.exclude.length ? { exclude: c.exclude } : {}),
          language: c.language,
          ...(c.url !== undefined ? { url: c.url } : {}),
        },
      },
    },
    correctiveRetrieval: { enabled: true, grader: "signal", retryBudget: 1 },
  };
}

/** Source formats a site generator publishes as web pages, by the extension their files have. */
const PUBLISHED_AS_HTML: Readonly<Record<string, string>> = { markdown: ".md", mdx: ".mdx", rst: ".rst" };

/**
 * What `--url` set, and — when the documents are sources a site generator turns into web pages —
 * how to make their links end as the published pages do, which init cannot know (`.html`, or no
 * extension at all).
 */
function linkLines(template: string, collection: string, formats: Record<string, number>): string[] {
  const key = `knowledge.collections.${collection}.url`;
  const sources = Object.keys(formats).flatMap((format) => PUBLISHED_AS_HTML[format] ?? []);
  if (sources.length === 0) return [`links: ${template} (${key})`];
  const example = sources.map((extension) => `"${extension}": ".html"`).join(", ");
  return [
    `links: ${template} (${key}); ${sources.join(", ")} files link as they are named: if the site`,
    `  publishes them as .html, set ${key} to {"template": "${template}", "extensions": {${example}}}`,
  ];
}

/** How the user names the bot in the next commands: relative to where they are, as a path. */
function relativeRef(cwd: string, dir: string): string {
  const rel = slashed(relative(cwd, dir));
  if (rel === "") return ".";
  // A folder outside the working one reads as the user named it, not as a climb of `../`.
  if (isAbsolute(rel) || rel.startsWith("../")) return slashed(dir);
  return `./${rel}`;
}

/** A title's leading section number ("4.3. ", "1) ", "II. "): not words anyone types. */
const SECTION_NUMBER = /^(?:(?:\p{N}+(?:[.)]|\s)|[IVXLC]+[.)])\s*)+(?=\p{L})/u;
/** Words a sample query ideally has: a topic, not one word or a sentence. */
const QUERY_WORDS = { fewest: 2, most: 8, ideal: 4 } as const;

/**
 * A query to try: the sampled documents' title that reads most like a topic someone would ask
 * about — its section number left off; plain words only; not a shouted file name ("AUTHORS",
 * "NEWS"); two to eight words, the nearest to four first (then by alphabet, so the choice is
 * stable). Else any plain title, else a placeholder.
 */
export function sampleQuery(titles: readonly string[]): string {
  const plain = titles
    .map((t) => t.trim().replace(SECTION_NUMBER, "").trim())
    .filter((t) => /^[\p{L}\p{N} ,.'-]{3,60}$/u.test(t) && /\p{L}/u.test(t));
  const words = (t: string) => t.split(/\s+/).length;
  const topical = plain.filter((t) => {
    const shouted = /\p{Lu}/u.test(t) && !/\p{Ll}/u.test(t);
    const n = words(t);
    return !shouted && n >= QUERY_WORDS.fewest && n <= QUERY_WORDS.most;
  });
  const byFit = (a: string, b: string) =>
    Math.abs(words(a) - QUERY_WORDS.ideal) - Math.abs(words(b) - QUERY_WORDS.ideal) || a.localeCompare(b);
  return topical.sort(byFit)[0] ?? plain.sort()[0] ?? "your question";
}

/** The next three commands: search, ask (offline without a model), and the MCP server. */
function nextCommands(ref: string, query: string): string[] {
  const shellRef = /^[\w./-]+$/.test(ref) ? ref : `'${ref.replace(/'/g, "'\\''")}'`;
  return [
    `npx second-look search ${shellRef} "${query}"`,
    `npx second-look ask ${shellRef} "${query}"`,
    `npx second-look mcp ${shellRef}`,
  ];
}
