// The judged collections the documentation-bot suite decides defaults on, all in one shape:
// two documentation bots — pydocs (built from Debian's Python 3.11 HTML docs by
// ../shared/data/pydocs/build-bot.sh), lohelp-en (LibreOffice's help in English, the lohelp
// bench's en-us bot: its pages from BENCH_LOHELP_DIR or ../shared/data/lohelp/build-bot.sh) and
// nodejs-api (Node.js 18's API reference in Markdown, built by bench/data/nodejs-api/build-bot.sh) —
// the handbook bot's own questions, and Cranfield, CISI and CACM (BEIR layout). Each comes with
// an engine built the way a bot builds it and the extracted text the peers index.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { KnowledgeEngine } from "../../src/backends/embedded/embedded-engine.js";
import { openEmbeddedEngine } from "../../src/backends/embedded/open-embedded.js";
import { readBeir } from "../../src/evaluation/beir.js";
import type { EvalDoc } from "../../src/evaluation/dataset.js";
import { toIndexableDocuments } from "../../src/evaluation/eval-documents.js";
import {
  type JudgedQuestion,
  matchesJudgedPath,
  readJudgedQuestions,
} from "../../src/evaluation/judged-questions.js";
import { DEFAULT_CALIBRATION } from "../../src/knowledge/relevance.js";
import { lohelpBotDir, openLohelpBot } from "../lohelp/bot.js";
import { LOHELP_LANGUAGES } from "../lohelp/languages.js";
import { benchDataDir, dataDir, MissingData, repo } from "./data.js";

export { benchDataDir, dataDir, MissingData, repo };

export interface JudgedCollection {
  name: string;
  engine: KnowledgeEngine;
  /** Title and text of every document as the engine indexed it: what the peers index. */
  docs: EvalDoc[];
  questions: { id: string; text: string; answerable: boolean; relevant: Set<string>; vocab?: string }[];
}

export const COLLECTION_NAMES = [
  "pydocs",
  "lohelp-en",
  "nodejs-api",
  "handbook",
  "cranfield",
  "cisi",
  "cacm",
] as const;
/** The documentation bots: questions in users' words, unanswerable ones among them. */
export const DOCS_COLLECTIONS: readonly string[] = ["pydocs", "lohelp-en", "nodejs-api"];

/** The collections whose data is present; `skipped` says why the others are not. */
export async function loadCollections(
  names: readonly string[] = COLLECTION_NAMES,
): Promise<{ collections: JudgedCollection[]; skipped: string[] }> {
  const collections: JudgedCollection[] = [];
  const skipped: string[] = [];
  for (const name of names) {
    try {
      if (name === "pydocs") collections.push(await loadPydocs());
      else if (name === "lohelp-en") collections.push(await loadLohelpEnglish());
      else if (name === "nodejs-api") collections.push(await loadNodejsApi());
      else if (name === "handbook") collections.push(await loadHandbook());
      else collections.push(await loadBeirCollection(name));
    } catch (error) {
      if (!(error instanceof MissingData)) throw error;
      skipped.push(`${name}: ${error.message}`);
    }
  }
  return { collections, skipped };
}

const run = promisify(execFile);

/** The pydocs bot folder: built once into a cache dir by the data's own script (BENCH_PYDOCS_BOT reuses one). */
export async function pydocsBotDir(): Promise<string> {
  const script = join(dataDir, "pydocs", "build-bot.sh");
  if (!existsSync(script)) throw new MissingData(`${script} not found (../shared/data absent)`);
  const dir = process.env.BENCH_PYDOCS_BOT ?? join(tmpdir(), "second-look-bench-pydocs");
  if (!existsSync(join(dir, "docs", "library", "pathlib.html"))) {
    process.stderr.write(`building the pydocs bot in ${dir} with ${script} …\n`);
    await run("bash", [script, dir], { maxBuffer: 16 * 1024 * 1024 });
  }
  const config = {
    description: "Python 3.11 documentation (benchmark)",
    knowledge: { backend: "embedded", collections: { pydocs: { paths: ["docs/**/*.html"] } } },
    correctiveRetrieval: { enabled: true, grader: "signal" },
  };
  await writeFile(join(dir, "config.json"), `${JSON.stringify(config, null, 2)}\n`);
  return dir;
}

async function loadPydocs(): Promise<JudgedCollection> {
  const dir = await pydocsBotDir();
  const { engine } = await openEmbeddedEngine(dir, { pydocs: { paths: ["docs/**/*.html"] } });
  // The suite decides the shipped defaults: it measures the shipped calibration even where a
  // `second-look calibrate` run left the bot folder its own.
  engine.useCalibration(DEFAULT_CALIBRATION);
  const judged = await readJudgedQuestions(join(dataDir, "pydocs", "queries.jsonl"));
  return fromEngine("pydocs", engine, judged);
}

/** The lohelp bench's en-us bot folder (its config, `language: "en-US"`), in a folder of its own. */
export async function lohelpEnglishBotDir(): Promise<string> {
  const english = LOHELP_LANGUAGES.find((l) => l.code === "en-us")!;
  const questions = join(dataDir, "lohelp", "queries.en-us.jsonl");
  if (!existsSync(questions)) throw new MissingData(`${questions} not found`);
  return lohelpBotDir(english, "tag", join(tmpdir(), "second-look-bench-docbots-lohelp-en"));
}

async function loadLohelpEnglish(): Promise<JudgedCollection> {
  const { engine } = await openLohelpBot(await lohelpEnglishBotDir());
  engine.useCalibration(DEFAULT_CALIBRATION);
  return fromEngine(
    "lohelp-en",
    engine,
    await readJudgedQuestions(join(dataDir, "lohelp", "queries.en-us.jsonl")),
  );
}

/** The judged questions of the nodejs-api set (committed in this repository, bench/data/nodejs-api). */
export const nodejsApiQuestions = join(benchDataDir, "nodejs-api", "queries.jsonl");

/**
 * The nodejs-api bot folder: the 64 API pages of Debian's nodejs-doc, built once into a cache dir
 * by the set's own script (BENCH_NODEJS_API_BOT reuses one; the script keeps the .deb in its cache).
 */
export async function nodejsApiBotDir(): Promise<string> {
  const script = join(benchDataDir, "nodejs-api", "build-bot.sh");
  if (!existsSync(script)) throw new MissingData(`${script} not found`);
  const dir = process.env.BENCH_NODEJS_API_BOT ?? join(tmpdir(), "second-look-bench-nodejs-api");
  if (!existsSync(join(dir, "docs", "fs.md"))) {
    process.stderr.write(`building the nodejs-api bot in ${dir} with ${script} …\n`);
    try {
      await run("bash", [script, dir], { maxBuffer: 16 * 1024 * 1024 });
    } catch (error) {
      // no network and no cached package: the collection is skipped and named, like absent data
      throw new MissingData(`${script} failed: ${(error as { stderr?: string }).stderr?.trim() || error}`);
    }
  }
  const config = {
    description: "Node.js 18 API reference (benchmark)",
    knowledge: { backend: "embedded", collections: { "nodejs-api": { paths: ["docs/**/*.md"] } } },
    correctiveRetrieval: { enabled: true, grader: "signal" },
  };
  await writeFile(join(dir, "config.json"), `${JSON.stringify(config, null, 2)}\n`);
  return dir;
}

async function loadNodejsApi(): Promise<JudgedCollection> {
  const dir = await nodejsApiBotDir();
  const { engine } = await openEmbeddedEngine(dir, { "nodejs-api": { paths: ["docs/**/*.md"] } });
  engine.useCalibration(DEFAULT_CALIBRATION);
  return fromEngine("nodejs-api", engine, await readJudgedQuestions(nodejsApiQuestions));
}

async function loadHandbook(): Promise<JudgedCollection> {
  // A copy: the repository's bot folder never gets an index written into it.
  const dir = join(tmpdir(), "second-look-bench-handbook");
  await mkdir(dir, { recursive: true });
  await cp(join(repo, "bots/handbook/docs"), join(dir, "docs"), { recursive: true });
  const { engine } = await openEmbeddedEngine(dir, { handbook: { paths: ["docs/**/*.md"] } });
  engine.useCalibration(DEFAULT_CALIBRATION);
  const raw = JSON.parse(await readFile(join(repo, "test/fixtures/handbook/questions.json"), "utf8")) as {
    q: string;
    doc: string;
  }[];
  const judged: JudgedQuestion[] = raw.map((r, i) => ({
    id: `hb${i + 1}`,
    text: r.q,
    kind: "answerable",
    relevant: [r.doc],
  }));
  return fromEngine("handbook", engine, judged);
}

/** A collection of the engine's first (only) collection, its documents' text and the questions' answering ids. */
export function fromEngine(
  name: string,
  engine: KnowledgeEngine,
  judged: readonly JudgedQuestion[],
): JudgedCollection {
  const index = engine.collectionIndex(engine.collections()[0]!)!;
  const docs: EvalDoc[] = index.documents.map((d) => ({
    id: d.id,
    title: d.title,
    text: d.sections.map((s) => (s.heading ? `${s.heading}\n${s.content}` : s.content)).join("\n\n"),
  }));
  const ids = docs.map((d) => d.id);
  return {
    name,
    engine,
    docs,
    questions: judged.map((q) => ({
      id: q.id,
      text: q.text,
      answerable: q.kind === "answerable",
      relevant: new Set(ids.filter((id) => q.relevant.some((p) => matchesJudgedPath(id, p)))),
      ...(q.vocab ? { vocab: q.vocab } : {}),
    })),
  };
}

async function loadBeirCollection(name: string): Promise<JudgedCollection> {
  const dir = join(dataDir, `${name}-beir`);
  if (!existsSync(join(dir, "corpus.jsonl"))) throw new MissingData(`${dir} not found`);
  const dataset = await readBeir(dir);
  const engine = KnowledgeEngine.fromDocuments({ [name]: toIndexableDocuments(dataset.docs) });
  return {
    name,
    engine,
    docs: dataset.docs,
    questions: dataset.queries.map((q) => ({
      id: q.id,
      text: q.text,
      answerable: true,
      relevant: new Set([...(dataset.qrels.get(q.id) ?? new Map()).keys()]),
    })),
  };
}
