// Debian's Chromium (installed by .ci/run) driven headless through its command-line flags only:
// no npm dependency. Each run gets a fresh profile folder and no background networking, so a page
// is rendered exactly as a bot owner's browser would open the file, offline.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

/** The Chromium binary, or undefined when it is not installed. */
export const chromiumPath: string | undefined = CANDIDATES.find((p) => existsSync(p));

/** Bound on one headless run (a cold start on a loaded 2-core machine takes a few seconds). */
const RUN_TIMEOUT_MS = 90_000;

async function headless(args: string[]): Promise<string> {
  if (!chromiumPath) throw new Error("chromium is not installed (.ci/run installs Debian's chromium)");
  const profile = await mkdtemp(join(tmpdir(), "second-look-chromium-"));
  try {
    const { stdout } = await promisify(execFile)(
      chromiumPath,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        `--user-data-dir=${profile}`,
        ...args,
      ],
      { timeout: RUN_TIMEOUT_MS, maxBuffer: 64 << 20, killSignal: "SIGKILL" },
    );
    return stdout;
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}

/** The page's DOM after Chromium loaded it, serialised. */
export function dumpDom(file: string): Promise<string> {
  return headless(["--dump-dom", pathToFileURL(file).href]);
}

/** A PNG screenshot of the page at the given window size. */
export async function screenshot(file: string, width: number, height: number): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), "second-look-shot-"));
  const png = join(dir, "shot.png");
  try {
    await headless([`--window-size=${width},${height}`, `--screenshot=${png}`, pathToFileURL(file).href]);
    return await readFile(png);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
