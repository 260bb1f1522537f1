// The parser threads' bounds, each shown on a file that passes it.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IngestPool } from "../../../src/knowledge/index/ingest-pool.js";
import { hostileText } from "../../support/hostile-files.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "second-look-pool-"));
  const paragraph = "Plain words in a paragraph with *some emphasis* and a [link](x).\n\n";
  // 9.5 MB of paragraphs (under the 10 MB file cap): the parse's tokens and sections need several
  // times the 32 MB bound below, far enough past it that when the collector runs cannot decide it.
  await writeFile(join(dir, "big.md"), paragraph.repeat(Math.floor((9.5 * 1024 * 1024) / paragraph.length)));
  // Unclosed link openers: the parser reads some tens of thousands a second, so a million keep a
  // thread busy far past the 1 s bound below (and past the withdrawal at 500 ms).
  await writeFile(join(dir, "slow.md"), hostileText.brackets(1_000_000));
  await writeFile(join(dir, "ok.md"), "# Title\n\nSome text.\n");
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe("IngestPool", () => {
  it("stops a parse that needs more memory than its bound, naming the bound, and goes on", async () => {
    const pool = new IngestPool({ fileTimeoutMs: 120_000, fileMemoryMb: 32, workers: 1 });
    try {
      const big = await pool.ingest({ absPath: join(dir, "big.md"), id: "big.md" });
      expect(big).toEqual({ ok: false, reason: "parsing needed more than the 32 MB memory limit per file" });
      const ok = await pool.ingest({ absPath: join(dir, "ok.md"), id: "ok.md" });
      expect(ok.ok).toBe(true);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it("stops a parse that never yields at its deadline", async () => {
    const pool = new IngestPool({ fileTimeoutMs: 1_000, fileMemoryMb: 256, workers: 1 });
    try {
      const started = performance.now();
      const slow = await pool.ingest({ absPath: join(dir, "slow.md"), id: "slow.md" });
      // Its 1 s of CPU time, or on a machine too busy to give it that within 5 s, the wall-clock last resort.
      expect(slow).toEqual({
        ok: false,
        reason: expect.stringMatching(/^parsing took longer than the (1 s|5 s wall-clock) limit per file/),
      });
      // The deadline counts from when the thread had its file (its start-up is not charged).
      expect(performance.now() - started).toBeLessThan(35_000);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it("a withdrawn file comes back stopped, whether queued or running", async () => {
    const pool = new IngestPool({ fileTimeoutMs: 60_000, fileMemoryMb: 256, workers: 1 });
    try {
      const stop = new AbortController();
      const running = pool.ingest({ absPath: join(dir, "slow.md"), id: "slow.md" }, { signal: stop.signal });
      const queued = pool.ingest({ absPath: join(dir, "ok.md"), id: "ok.md" }, { signal: stop.signal });
      setTimeout(() => stop.abort(), 500);
      expect(await running).toMatchObject({ ok: false, stopped: true });
      expect(await queued).toMatchObject({ ok: false, stopped: true });
    } finally {
      await pool.close();
    }
  }, 60_000);
});
