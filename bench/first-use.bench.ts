/**
 * A team's first minutes with its own documents (issue 33, "no waiting"), before and after in one run:
 *
 * - **Markdown ingest against the same text as .txt**: `second-look index` on a fresh bot (no index
 *   yet) of Markdown files, and on a bot of the very same bytes saved as `.txt`; wall time and the
 *   CPU time of the whole process (every thread, the parser threads included), so MB/s per
 *   CPU-second reads as MB/s per core. Targets: Markdown ≤ 3× the .txt wall time, ≥ 1 MB per CPU-s.
 * - **cold `search`** on an indexed 400-page bot (a new process: import, config, index load,
 *   search, exit), against `node -e 0` in the same rounds. Target: ≤ 3× `node -e 0`'s wall time.
 *
 * The data: FIRST_USE_MARKDOWN_DIR, a folder of .md files (Node.js's API docs: bench/first-use/
 * nodejs-doc.sh downloads Debian's nodejs-doc package with apt-get and unpacks it; nothing here
 * downloads), else a generated Markdown corpus (seeded: headings, paragraphs with inline markup,
 * lists, tables, fenced code; ~3 MB in 60 files). The 400 pages of the search bot are generated.
 *
 * "before" is FIRST_USE_BASE (default main), "after" FIRST_USE_HEAD (default HEAD): each checked
 * out into a temporary git worktree borrowing this checkout's node_modules and built (`npm run
 * build`); commit what you measure. Sides take turns, which goes first alternating; medians of
 * FIRST_USE_ROUNDS ingest rounds (default 3) and FIRST_USE_SEARCH_ROUNDS search rounds (default 11).
 */
import { execFile, spawn } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { percentiles } from "../src/evaluation/percentiles.js";
import { seededRandom } from "../test/support/seeded-random.js";

export const name = "first-use";
/** Two builds, and micromark's Markdown ingest (~16 CPU-s for Node's docs) three times on a busy machine. */
export const timeoutMs = 3_600_000;

const exec = promisify(execFile);
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const STEP = fileURLToPath(new URL("./first-use/step.mjs", import.meta.url));
const ROUNDS = Number(process.env.FIRST_USE_ROUNDS ?? 3);
const SEARCH_ROUNDS = Number(process.env.FIRST_USE_SEARCH_ROUNDS ?? 11);
const SEARCH_PAGES = 400;
const MB = 1024 * 1024;
const TARGETS = { markdownOverText: 3, mbPerCpuSecond: 1, searchOverNode: 3 };

interface Side {
  label: "before" | "after";
  ref: string;
  commit: string;
  dir: string;
}

interface StepFigures {
  wallMs: number;
  cpuMs: number;
  /** The process's peak resident memory (its parser threads' included). */
  peakMiB: number;
}

const median = (values: number[]) => percentiles(values, [50])[0]!;

/** Roughly Zipfian words from a 20,000-word vocabulary. */
function wordsOf(count: number, next: () => number): string {
  return Array.from({ length: count }, () => `w${Math.floor(20_000 ** next()).toString(36)}`).join(" ");
}

/** A Markdown page of about `bytes`: what API and handbook pages hold. */
function markdownPage(title: string, bytes: number, next: () => number): string {
  const parts = [`# ${title}\n`];
  let size = 0;
  let n = 0;
  while (size < bytes) {
    const kind = n++ % 6;
    const block =
      kind === 0
        ? `## ${wordsOf(3, next)}\n`
        : kind === 1
          ? `${wordsOf(30, next)} *${wordsOf(2, next)}* and \`${wordsOf(1, next)}()\` see [${wordsOf(2, next)}](https://example.com/${n}).\n${wordsOf(25, next)}.\n`
          : kind === 2
            ? ["- ", "- ", "- "]
                .map((m) => `${m}${wordsOf(8, next)}`)
                .join("\n")
                .concat("\n")
            : kind === 3
              ? `| name | type | meaning |\n| --- | --- | --- |\n${Array.from({ length: 4 }, () => `| \`${wordsOf(1, next)}\` | string | ${wordsOf(6, next)} |`).join("\n")}\n`
              : kind === 4
                ? `\`\`\`js\nconst ${wordsOf(1, next)} = require("${wordsOf(1, next)}");\n${wordsOf(1, next)}.call(${wordsOf(2, next).replace(" ", ", ")});\n\`\`\`\n`
                : `${wordsOf(40, next)}.\n`;
    parts.push(block);
    size += block.length + 1;
  }
  return parts.join("\n");
}

/** The Markdown files to ingest: FIRST_USE_MARKDOWN_DIR's, or 60 generated ones of ~54 KB. */
function markdownSource(work: string): { dir: string; origin: string } {
  const given = process.env.FIRST_USE_MARKDOWN_DIR;
  if (given) {
    const files = readdirSync(given).filter((f) => f.endsWith(".md"));
    if (files.length === 0) throw new Error(`FIRST_USE_MARKDOWN_DIR=${given} holds no .md files`);
    return { dir: given, origin: `the ${files.length} .md files of ${given} (FIRST_USE_MARKDOWN_DIR)` };
  }
  const dir = join(work, "generated-md");
  mkdirSync(dir);
  const next = seededRandom(33);
  for (let i = 0; i < 60; i++)
    writeFileSync(join(dir, `page-${i}.md`), markdownPage(`Page ${i}`, 54_000, next));
  return {
    dir,
    origin: "60 generated Markdown files (seeded; headings, inline markup, lists, tables, code)",
  };
}

/** A bot (never indexed) of the source's files, saved with `extension`. */
function botOf(
  dir: string,
  source: string,
  extension: "md" | "txt",
  extra: object = {},
  language = "en",
): number {
  mkdirSync(join(dir, "docs"), { recursive: true });
  let bytes = 0;
  for (const file of readdirSync(source).filter((f) => f.endsWith(".md"))) {
    const text = readFileSync(join(source, file));
    bytes += text.length;
    writeFileSync(join(dir, "docs", `${file.slice(0, -3)}.${extension}`), text);
  }
  const collection = { paths: [`docs/**/*.${extension}`], language };
  writeFileSync(
    join(dir, "config.json"),
    JSON.stringify({ knowledge: { collections: { docs: collection } }, ...extra }),
  );
  return bytes;
}

async function prepareSide(label: Side["label"], ref: string, work: string): Promise<Side> {
  const commit = (await exec("git", ["rev-parse", "--short", ref], { cwd: REPO })).stdout.trim();
  const dir = join(work, label);
  await exec("git", ["worktree", "add", "--detach", dir, commit], { cwd: REPO });
  symlinkSync(realpathSync(join(REPO, "node_modules")), join(dir, "node_modules"));
  process.stderr.write(`first-use: building ${label} (${commit})\n`);
  await exec("npm", ["run", "build", "--silent"], { cwd: dir, maxBuffer: 64 * MB });
  return { label, ref, commit, dir };
}

/**
 * The code cache (src/cli/code-cache.ts) of every run here: a folder of this run's own, so the
 * first command of each kind starts without one, as after an install, and the user's is untouched.
 */
let codeCache = "";

/** The environment of a measured run: the code cache this run's, or `off`. */
function runEnv(cache: "on" | "off" = "on"): NodeJS.ProcessEnv {
  return { ...process.env, SECOND_LOOK_CODE_CACHE: cache === "on" ? codeCache : "off" };
}

/** `second-look <args>` of one side through step.mjs: its figures (and a failure's stderr). */
function step(side: Side, args: string[]): Promise<StepFigures> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [STEP, side.dir, ...args], {
      stdio: ["ignore", "ignore", "pipe"],
      env: runEnv(),
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    child.on("close", (code) => {
      const last = /\{"firstUse":(\{[^}]*\})\}\s*$/.exec(stderr);
      if (code !== 0 || !last)
        fail(
          new Error(`${side.label}: second-look ${args.join(" ")} exited ${code}: ${stderr.slice(-2000)}`),
        );
      else done(JSON.parse(last[1]!) as StepFigures);
    });
  });
}

/** Wall time of one process from spawn to exit. */
function wallOf(args: string[], env: NodeJS.ProcessEnv = runEnv()): Promise<number> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "ignore"], env });
    child.on("close", (code) =>
      code === 0 ? done(performance.now() - started) : fail(new Error(`${args.join(" ")} exited ${code}`)),
    );
  });
}

async function measureIngest(sides: Side[], work: string, source: string) {
  const samples = new Map<string, StepFigures[]>();
  let bytes = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      // "auto": the Markdown again, each document's language detected in the parser threads.
      for (const format of ["md", "txt", "auto"] as const) {
        const bot = join(work, `ingest-${side.label}-${format}-${round}`);
        bytes = botOf(bot, source, format === "txt" ? "txt" : "md", {}, format === "auto" ? "auto" : "en");
        const figures = await step(side, ["index", bot, "--json"]);
        process.stderr.write(
          `first-use: ${side.label} ${format} round ${round + 1}: ${JSON.stringify(figures)}\n`,
        );
        const key = `${side.label} ${format}`;
        samples.set(key, [...(samples.get(key) ?? []), figures]);
        rmSync(bot, { recursive: true, force: true });
      }
    }
  }
  const summary = (key: string) => {
    const runs = samples.get(key)!;
    return {
      wallMs: Math.round(median(runs.map((r) => r.wallMs))),
      cpuMs: Math.round(median(runs.map((r) => r.cpuMs))),
      peakMiB: Math.round(median(runs.map((r) => r.peakMiB))),
    };
  };
  // Markdown over .txt per round (the two ran one after the other, under about the same load), then the median.
  const ratios = (label: Side["label"]) => {
    const md = samples.get(`${label} md`)!;
    const txt = samples.get(`${label} txt`)!;
    const of = (field: keyof StepFigures) =>
      Number(median(md.map((m, i) => m[field] / txt[i]![field])).toFixed(2));
    return { wall: of("wallMs"), cpu: of("cpuMs") };
  };
  return {
    bytes,
    rounds: Object.fromEntries(samples),
    before: {
      md: summary("before md"),
      txt: summary("before txt"),
      auto: summary("before auto"),
      markdownOverText: ratios("before"),
    },
    after: {
      md: summary("after md"),
      txt: summary("after txt"),
      auto: summary("after auto"),
      markdownOverText: ratios("after"),
    },
  };
}

/**
 * Long enough (MIN_LANGUAGE_LETTERS) to be in another language: the corrective pass asks the
 * language detector about it unless the English pages hold every word of it (as they do this one's).
 */
const LONG_QUERY = "w1 w2k w3f w4a w5b w6c w7d";
const LONG_QUERY_ROW = `corrective retrieval on, query "${LONG_QUERY}" (every word on the pages)`;
/** The same with a word no page holds: the detector is asked, and loaded, on both sides. */
const UNHELD_QUERY = "w1 w2k w3f w4a w5b w6c qqzzx";
const UNHELD_QUERY_ROW = `corrective retrieval on, query "${UNHELD_QUERY}" (a word on no page: detector loaded)`;
const NO_CACHE_ROW = "corrective retrieval off, no code cache (SECOND_LOOK_CODE_CACHE=off: a first run)";

const CONFIGS = {
  "corrective retrieval off (the default)": {},
  "corrective retrieval on (signal grader)": { correctiveRetrieval: { enabled: true, grader: "signal" } },
} as const;

async function measureSearch(sides: Side[], work: string) {
  const pages = join(work, "search-pages");
  mkdirSync(pages);
  const next = seededRandom(400);
  for (let i = 0; i < SEARCH_PAGES; i++)
    writeFileSync(join(pages, `page-${i}.md`), markdownPage(`Page ${i}`, 3_000, next));
  const bots = new Map<string, string>();
  for (const side of sides) {
    for (const [label, extra] of Object.entries(CONFIGS)) {
      const bot = join(work, `search-${side.label}-${Object.keys(CONFIGS).indexOf(label)}`);
      botOf(bot, pages, "md", extra);
      await step(side, ["index", bot, "--json"]);
      bots.set(`${side.label} ${label}`, bot);
    }
  }
  const query = ["w1 w2k w3f", "--json"];
  const samples = new Map<string, number[]>();
  const add = (key: string, ms: number) => samples.set(key, [...(samples.get(key) ?? []), ms]);
  for (let round = 0; round < SEARCH_ROUNDS; round++) {
    add("node -e 0", await wallOf(["-e", "0"]));
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      const bin = join(side.dir, "bin", "second-look.js");
      for (const label of Object.keys(CONFIGS)) {
        const bot = bots.get(`${side.label} ${label}`)!;
        add(`${side.label} ${label}`, await wallOf([bin, "search", bot, ...query]));
      }
      // Queries with letters enough to be in another language.
      const on = bots.get(`${side.label} ${Object.keys(CONFIGS)[1]}`)!;
      add(`${side.label} ${LONG_QUERY_ROW}`, await wallOf([bin, "search", on, LONG_QUERY, "--json"]));
      add(`${side.label} ${UNHELD_QUERY_ROW}`, await wallOf([bin, "search", on, UNHELD_QUERY, "--json"]));
      // As the first search after an install: no code cache to start from.
      const off = bots.get(`${side.label} ${Object.keys(CONFIGS)[0]}`)!;
      add(`${side.label} ${NO_CACHE_ROW}`, await wallOf([bin, "search", off, ...query], runEnv("off")));
    }
    add("node -e 0", await wallOf(["-e", "0"]));
    process.stderr.write(`first-use: search round ${round + 1}/${SEARCH_ROUNDS}\n`);
  }
  return Object.fromEntries([...samples].map(([key, values]) => [key, Math.round(median(values))]));
}

export async function run() {
  const work = mkdtempSync(join(tmpdir(), "second-look-first-use-"));
  codeCache = join(work, "code-cache");
  const sides: Side[] = [];
  const loadAtStart = loadavg()[0]!;
  try {
    sides.push(await prepareSide("before", process.env.FIRST_USE_BASE ?? "main", work));
    sides.push(await prepareSide("after", process.env.FIRST_USE_HEAD ?? "HEAD", work));
    const source = markdownSource(work);
    const ingest = await measureIngest(sides, work, source.dir);
    const search = await measureSearch(sides, work);
    return report(sides, source.origin, ingest, search, loadAtStart);
  } finally {
    for (const side of sides) {
      await exec("git", ["worktree", "remove", "--force", side.dir], { cwd: REPO }).catch(() => undefined);
    }
    rmSync(work, { recursive: true, force: true });
    await exec("git", ["worktree", "prune"], { cwd: REPO }).catch(() => undefined);
  }
}

type Ingest = Awaited<ReturnType<typeof measureIngest>>;

function report(
  sides: Side[],
  origin: string,
  ingest: Ingest,
  search: Record<string, number>,
  loadAtStart: number,
) {
  const mb = ingest.bytes / MB;
  const [before, after] = sides as [Side, Side];
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  const perCpu = (f: StepFigures) => (mb / (f.cpuMs / 1000)).toFixed(2);
  const perWall = (f: StepFigures) => (mb / (f.wallMs / 1000)).toFixed(2);
  const node = search["node -e 0"]!;
  const rows = [
    `| Markdown ingest: wall s (CPU s) | ${s(ingest.before.md.wallMs)} (${s(ingest.before.md.cpuMs)}) | ${s(ingest.after.md.wallMs)} (${s(ingest.after.md.cpuMs)}) | |`,
    `| same text as .txt: wall s (CPU s) | ${s(ingest.before.txt.wallMs)} (${s(ingest.before.txt.cpuMs)}) | ${s(ingest.after.txt.wallMs)} (${s(ingest.after.txt.cpuMs)}) | |`,
    `| Markdown / .txt, wall (median of the rounds' ratios) | ${ingest.before.markdownOverText.wall} | ${ingest.after.markdownOverText.wall} | ≤ ${TARGETS.markdownOverText} |`,
    `| Markdown / .txt, CPU (median of the rounds' ratios) | ${ingest.before.markdownOverText.cpu} | ${ingest.after.markdownOverText.cpu} | |`,
    `| Markdown MB/s (wall) | ${perWall(ingest.before.md)} | ${perWall(ingest.after.md)} | |`,
    `| Markdown MB per CPU-second (per core) | ${perCpu(ingest.before.md)} | ${perCpu(ingest.after.md)} | ≥ ${TARGETS.mbPerCpuSecond} |`,
    `| .txt MB per CPU-second | ${perCpu(ingest.before.txt)} | ${perCpu(ingest.after.txt)} | |`,
    `| Markdown ingest, peak MiB | ${ingest.before.md.peakMiB} | ${ingest.after.md.peakMiB} | |`,
    `| Markdown ingest, \`language: "auto"\` (a detector in every parser thread): wall s (CPU s) | ${s(ingest.before.auto.wallMs)} (${s(ingest.before.auto.cpuMs)}) | ${s(ingest.after.auto.wallMs)} (${s(ingest.after.auto.cpuMs)}) | |`,
    `| Markdown ingest, \`language: "auto"\`, peak MiB | ${ingest.before.auto.peakMiB} | ${ingest.after.auto.peakMiB} | |`,
    ...[...Object.keys(CONFIGS), LONG_QUERY_ROW, UNHELD_QUERY_ROW, NO_CACHE_ROW].flatMap((label) => [
      `| cold search, ${label}: ms | ${search[`before ${label}`]} | ${search[`after ${label}`]} | |`,
      `| cold search / node -e 0, ${label} | ${ratio(search[`before ${label}`]!, node)} | ${ratio(search[`after ${label}`]!, node)} | ≤ ${TARGETS.searchOverNode} |`,
    ]),
    `| node -e 0: ms (same rounds) | ${node} | ${node} | |`,
  ];
  const markdown = [
    `Before: ${before.ref} (${before.commit}); after: ${after.ref} (${after.commit}). Ingest data: ${origin}, ${mb.toFixed(2)} MB; the .txt bot holds the same bytes. Ingest = \`second-look index <bot> --json\` on a bot never indexed (\`language: "en"\`, and \`"auto"\` where said), in a process of its own; CPU = user + system of every thread; peak = the process's maximum resident set. Medians of ${ROUNDS} rounds; a ratio is the median of each round's Markdown run over its .txt run, which ran right after it. Cold search = \`second-look search <bot> <query> --json\` on an indexed bot of ${SEARCH_PAGES} generated Markdown pages (~3 KB each), spawn to exit, medians of ${SEARCH_ROUNDS} rounds beside \`node -e 0\` (2 per round); a new process each time, with the code cache a command's first run leaves (a folder of this run's, empty at its start), except in the row that turns it off.`,
    "",
    "| | before | after | target |",
    "| --- | ---: | ---: | --- |",
    ...rows,
    "",
    `Load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end, on ${availableParallelism()} cores (a shared machine: wall times move with it; CPU times much less).`,
  ].join("\n");
  return {
    title: "First use: Markdown against plain-text ingest, and a cold search, before and after",
    figures: {
      sides: sides.map(({ label, ref, commit }) => ({ label, ref, commit })),
      origin,
      megabytes: Number(mb.toFixed(3)),
      rounds: ROUNDS,
      searchRounds: SEARCH_ROUNDS,
      ingest,
      search,
      targets: TARGETS,
      loadAverage: { start: loadAtStart, end: loadavg()[0] },
    },
    markdown,
  };
}
