// Issue 32, D5: a 4,999-page PDF with 16 lines a page needs about 16 s of CPU, yet on a busy
// 2-core machine (its parser thread given a third of a core) it took over 60 s of wall time and
// was skipped at the 60 s per-file bound. The bound is now the parser thread's CPU time, with
// five times as much wall time as the last resort (knowledge/documents/parse-bound.ts): a benign
// file is indexed however busy the machine, a hostile one is stopped at the same work. The
// tests use a small budget and a stand-in for the thread's CPU clock, so they are not timed.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkParseBound,
  ownThreadClock,
  threadCpuMs,
  WALL_CLOCK_FACTOR,
} from "../../src/knowledge/documents/parse-bound.js";
import { IngestPool } from "../../src/knowledge/index/ingest-pool.js";
import { hostileText, manyPagePdf } from "../support/hostile-files.js";

const PAGES = 100;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "second-look-busy-parse-"));
  await writeFile(join(dir, "report.pdf"), manyPagePdf(PAGES));
  // Unclosed link openers: Markdown the parser works through slowly (tens of thousands a second).
  await writeFile(join(dir, "brackets.md"), hostileText.brackets(1_000_000));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the per-file time bound is the work done", () => {
  it("the rule: CPU time decides; wall time only at its last resort, or where CPU time is unknown", () => {
    const budget = 60_000;
    const wall = budget * WALL_CLOCK_FACTOR;
    // The probe's case: 55 s of CPU over 120 s of wall time goes on.
    expect(checkParseBound({ cpuMs: 55_000, wallMs: 120_000 }, budget, wall)).toEqual({
      over: false,
      recheckInMs: 5_000,
    });
    expect(checkParseBound({ cpuMs: 60_000, wallMs: 61_000 }, budget, wall)).toEqual({
      over: "cpu",
      reason: "parsing took longer than the 60 s limit per file",
    });
    expect(checkParseBound({ cpuMs: 1_000, wallMs: wall }, budget, wall)).toMatchObject({
      over: "wall",
      reason: expect.stringMatching(/^parsing took longer than the 300 s wall-clock limit per file/),
    });
    expect(checkParseBound({ cpuMs: undefined, wallMs: 60_000 }, budget, wall)).toMatchObject({
      over: "wall",
    });
    expect(checkParseBound({ cpuMs: undefined, wallMs: 59_000 }, budget, wall)).toEqual({
      over: false,
      recheckInMs: 1_000,
    });
  });

  it("a generated PDF whose parser thread gets no CPU is indexed, though its wall time passes the budget", async () => {
    // A stand-in clock for a thread the machine never schedules: no CPU time passes. A 100 ms
    // wall-clock bound refused this file (pdf.js alone takes longer to load in a fresh thread).
    const starved = () => 0;
    const pool = new IngestPool(
      { fileTimeoutMs: 100, fileWallTimeoutMs: 30_000, fileMemoryMb: 512, workers: 1 },
      starved,
    );
    try {
      const result = await pool.ingest({ absPath: join(dir, "report.pdf"), id: "report.pdf" });
      expect(result.ok, JSON.stringify(result)).toBe(true);
      const text =
        result.ok && !result.unchanged ? result.document.sections.map((s) => s.content).join("\n") : "";
      expect(text).toContain(`Page ${PAGES} of the long report`);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it("a parse whose thread has used its CPU budget is stopped, however little wall time has passed", async () => {
    // A stand-in clock that says a minute of CPU passes between two reads.
    let reads = 0;
    const hungry = () => reads++ * 60_000;
    const pool = new IngestPool(
      { fileTimeoutMs: 1_000, fileWallTimeoutMs: 600_000, fileMemoryMb: 256, workers: 1 },
      hungry,
    );
    try {
      const result = await pool.ingest({ absPath: join(dir, "brackets.md"), id: "brackets.md" });
      expect(result).toEqual({ ok: false, reason: "parsing took longer than the 1 s limit per file" });
    } finally {
      await pool.close();
    }
  }, 60_000);

  it.runIf(process.platform === "linux")(
    "on Linux a thread's CPU time is read, and grows with its work",
    () => {
      const clock = ownThreadClock();
      expect(clock).toMatch(/^\/proc\/\d+\/task\/\d+$/);
      const before = threadCpuMs(clock!)!;
      let spin = 0;
      while (threadCpuMs(clock!)! <= before) spin++;
      expect(threadCpuMs(clock!)!).toBeGreaterThan(before);
      expect(spin).toBeGreaterThan(0);
    },
  );
});
