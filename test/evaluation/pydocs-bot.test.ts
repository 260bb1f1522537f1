// The pydocs bot (Debian's Python 3.11 HTML docs, 100 judged questions in users' words; built by
// ../shared/data/pydocs/build-bot.sh): `calibrate` stores a fit only when, held-out, it is no worse
// than the model the bot uses now on any decisive figure, and `eval --report` writes the page.
// Skipped without the shared data or the python3.11-doc package (the script would install it).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BotCalibrationReport, DECISIVE_FIGURES } from "../../src/evaluation/calibrate-bot.js";
import { calibrationFile } from "../../src/knowledge/bot-calibration.js";
import { chromiumPath, dumpDom } from "../support/chromium.js";
import { runBotEval, runCli } from "../support/run-cli.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const dataDir = resolve(repoRoot, "../shared/data/pydocs");
const HTML = "/usr/share/doc/python3.11/html/library/pathlib.html";
const available = existsSync(join(dataDir, "queries.jsonl")) && existsSync(HTML);
const questions = join(dataDir, "queries.jsonl");

describe.skipIf(!available)(
  `the pydocs bot (skipped when ${relative(repoRoot, dataDir)}/queries.jsonl or ${HTML} is absent)`,
  () => {
    let dir: string;
    let bot: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), "second-look-pydocs-"));
      bot = join(dir, "pydocs");
      await promisify(execFile)("bash", [join(dataDir, "build-bot.sh"), bot], { maxBuffer: 16 << 20 });
      await writeFile(
        join(bot, "config.json"),
        JSON.stringify({
          knowledge: { backend: "embedded", collections: { pydocs: { paths: ["docs/**/*.html"] } } },
          correctiveRetrieval: { enabled: true, grader: "signal" },
        }),
      );
    }, 120_000);
    afterAll(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it("calibrate stores a fit only when held-out it has no more false alarms, no fewer misses caught or unanswerable flagged", async () => {
      const run = await runCli(["calibrate", bot, "--questions", questions, "--json"]);
      const report = JSON.parse(run.stdout) as BotCalibrationReport;
      const heldOut = report.afterHeldOut!;
      expect(report.questions).toBe(100);
      // Every decisive figure measured held-out against the current model, each change classified.
      for (const { figure, better } of DECISIVE_FIGURES) {
        const was = report.before[figure]!;
        const now = heldOut[figure]!;
        const worse = better === "lower" ? now > was : now < was;
        expect(
          report.comparison.worse.some((c) => c.figure === figure),
          figure,
        ).toBe(worse);
      }
      const stored = report.storedIn !== null;
      expect(stored).toBe(report.comparison.worse.length === 0 && report.comparison.better.length > 0);
      expect(existsSync(calibrationFile(bot))).toBe(stored);
      expect(run.exitCode).toBe(stored ? 0 : 3);
    }, 120_000);

    it("eval --report writes one self-contained page with a row per question", async () => {
      const page = join(dir, "report.html");
      const run = await runBotEval(bot, questions, "--compare", "off,signal", "--report", page);
      expect(run.exitCode).toBe(0);
      const html = await readFile(page, "utf8");
      expect(html.match(/<tr[ >]/g)?.length).toBeGreaterThan(100);
      expect(html).not.toMatch(/<script|<link|src="http|href="http/i);
      for (const id of ["roc", "reliability", "hit-at-k", "summary", "questions"])
        expect(html).toContain(`id="${id}"`);
    }, 180_000);

    it.skipIf(!chromiumPath)(
      "the pydocs report opens in headless Chromium with its charts drawn",
      async () => {
        const dom = await dumpDom(join(dir, "report.html"));
        const svg = (id: string) => new RegExp(`<svg[^>]*id="${id}"[\\s\\S]*?</svg>`).exec(dom)?.[0] ?? "";
        // 100 questions: the ROC has a point per distinct bestScore, far more than a handful.
        const roc =
          /<polyline[^>]*class="series"[^>]*points="([^"]+)"/.exec(svg("roc"))?.[1]?.split(" ") ?? [];
        expect(roc.length).toBeGreaterThan(20);
        expect(svg("reliability").match(/<circle /g)?.length).toBeGreaterThanOrEqual(5);
        expect(svg("hit-at-k").match(/<polyline /g)).toHaveLength(3);
        expect(dom.match(/<tr class="miss">/g)?.length).toBeGreaterThan(0);
      },
      120_000,
    );
  },
);
