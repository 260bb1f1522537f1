/**
 * What a library user pays (issue 23, "a lean library"), before and after, in one run:
 *
 * - **import time** of each entry point (`second-look`, `/engine`, `/corrective`, `/knowledge-tool`,
 *   `/copilot-sdk`): a fresh `node` process per measurement imports the built entry and reports
 *   the import's wall time and its CPU time (user + system; steadier than wall time on a shared
 *   machine). The two builds take turns (alternating which goes first), ROUNDS rounds; each
 *   figure is the nearest-rank median.
 * - **library-only install**: `npm pack`, then in an empty project `npm i <tarball> --omit=dev
 *   --omit=peer`: the packages installed, their size on disk (as du counts it), and which of the
 *   optional peers (Slack, Teams, pg, the OTLP exporter, the Copilot SDK and its runtime) came along.
 *
 * "before" is IMPORTS_BEFORE (default 7852ce7, main when this bench was written), "after" is
 * IMPORTS_AFTER (default HEAD): each is checked out into a temporary git worktree that borrows
 * this checkout's node_modules, built by `npm pack` (which runs `prepare`), and removed at the end.
 * Commit what you measure: the working tree's uncommitted changes are not in HEAD.
 */
import { execFile } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { percentiles } from "../src/evaluation/percentiles.js";
import {
  cleanNpmEnv,
  diskBytes,
  installedPackages,
  installTarball,
  MB,
  NPM,
  OPTIONAL_PEERS,
} from "../test/support/installed-tree.js";

export const name = "imports";
export const timeoutMs = 1_500_000;

const exec = promisify(execFile);
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ROUNDS = Number(process.env.IMPORTS_ROUNDS ?? 11);
const ENTRIES = [
  { entry: "second-look", file: "index.js" },
  { entry: "second-look/engine", file: "engine.js" },
  { entry: "second-look/corrective", file: "corrective.js" },
  // Named second-look/protocol before 0.2 (still exported under that name).
  { entry: "second-look/knowledge-tool", file: "knowledge-tool.js", formerFile: "protocol.js" },
  { entry: "second-look/copilot-sdk", file: "copilot-sdk.js" },
] as const;
/** The targets: the root import at most this share of before's; the install at most this size. */
const ROOT_IMPORT_SHARE = 0.4;
const INSTALL_MB_BOUND = 100;

interface Side {
  label: "before" | "after";
  commit: string;
  dir: string;
  tarball: string;
}

interface ImportFigures {
  entry: string;
  wallMs: number;
  cpuMs: number;
}

interface InstallFigures {
  packages: number;
  mb: number;
  optionalPeersInstalled: string[];
}

const big = { maxBuffer: 64 * 1024 * 1024 };

async function prepareSide(label: Side["label"], ref: string, work: string): Promise<Side> {
  const commit = (await exec("git", ["rev-parse", "--short", ref], { cwd: REPO })).stdout.trim();
  const dir = join(work, label);
  await exec("git", ["worktree", "add", "--detach", dir, commit], { cwd: REPO });
  // The dependencies of this checkout; vendor/ is built into the worktree by `prepare`.
  symlinkSync(realpathSync(join(REPO, "node_modules")), join(dir, "node_modules"));
  const packs = join(work, `${label}-pack`);
  mkdirSync(packs);
  await exec(NPM, ["pack", "--pack-destination", packs, "--silent"], {
    cwd: dir,
    env: cleanNpmEnv(),
    ...big,
  });
  const tarball = readdirSync(packs).find((f) => f.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack wrote no tarball for ${label} (${commit})`);
  return { label, commit, dir, tarball: join(packs, tarball) };
}

/** One import in a fresh process: wall and CPU milliseconds of `await import(file)`. */
async function importOnce(file: string): Promise<{ wallMs: number; cpuMs: number }> {
  const script = `const c = process.cpuUsage(); const t = performance.now();
await import(${JSON.stringify(pathToFileURL(file).href)});
const wall = performance.now() - t; const u = process.cpuUsage(c);
process.stdout.write(JSON.stringify({ wallMs: wall, cpuMs: (u.user + u.system) / 1000 }));`;
  const { stdout } = await exec(process.execPath, ["--input-type=module", "-e", script], big);
  return JSON.parse(stdout) as { wallMs: number; cpuMs: number };
}

const median = (values: number[]) => percentiles(values, [50])[0]!;

async function measureImports(sides: readonly Side[]): Promise<Record<Side["label"], ImportFigures[]>> {
  const samples = new Map<string, { wall: number[]; cpu: number[] }>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const { entry, file, formerFile } of ENTRIES as readonly {
      entry: string;
      file: string;
      formerFile?: string;
    }[]) {
      // A busy machine slows both alike: they take turns, and which goes first alternates.
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) {
        const current = join(side.dir, "dist", file);
        const path = formerFile && !existsSync(current) ? join(side.dir, "dist", formerFile) : current;
        const measured = await importOnce(path);
        const key = `${side.label} ${entry}`;
        const sample = samples.get(key) ?? { wall: [], cpu: [] };
        sample.wall.push(measured.wallMs);
        sample.cpu.push(measured.cpuMs);
        samples.set(key, sample);
      }
    }
    process.stderr.write(`imports: round ${round + 1}/${ROUNDS}\n`);
  }
  const figures = (label: Side["label"]) =>
    ENTRIES.map(({ entry }) => {
      const sample = samples.get(`${label} ${entry}`)!;
      return { entry, wallMs: Math.round(median(sample.wall)), cpuMs: Math.round(median(sample.cpu)) };
    });
  return { before: figures("before"), after: figures("after") };
}

async function measureInstall(side: Side, work: string): Promise<InstallFigures> {
  const app = join(work, `${side.label}-app`);
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "library-user", private: true }));
  await installTarball(side.tarball, app, ["dev", "peer"]);
  const nodeModules = join(app, "node_modules");
  const names = installedPackages(nodeModules).map((p) => p.name);
  return {
    packages: names.length,
    mb: Math.round((diskBytes(nodeModules) / MB) * 10) / 10,
    optionalPeersInstalled: names.filter(
      (n) => (OPTIONAL_PEERS as readonly string[]).includes(n) || n.startsWith("@github/copilot"),
    ),
  };
}

async function measure() {
  const work = mkdtempSync(join(tmpdir(), "second-look-imports-"));
  const sides: Side[] = [];
  try {
    sides.push(await prepareSide("before", process.env.IMPORTS_BEFORE ?? "7852ce7", work));
    sides.push(await prepareSide("after", process.env.IMPORTS_AFTER ?? "HEAD", work));
    const imports = await measureImports(sides);
    const install = {
      before: await measureInstall(sides[0]!, work),
      after: await measureInstall(sides[1]!, work),
    };
    return { sides: sides.map(({ label, commit }) => ({ label, commit })), imports, install };
  } finally {
    for (const side of sides) {
      await exec("git", ["worktree", "remove", "--force", side.dir], { cwd: REPO }).catch(() => undefined);
    }
    rmSync(work, { recursive: true, force: true });
    await exec("git", ["worktree", "prune"], { cwd: REPO }).catch(() => undefined);
  }
}

export async function run() {
  const { sides, imports, install } = await measure();
  const before = sides[0]!;
  const after = sides[1]!;
  const rootBefore = imports.before[0]!;
  const rootAfter = imports.after[0]!;
  const rootShare = {
    cpu: Math.round((rootAfter.cpuMs / rootBefore.cpuMs) * 100) / 100,
    wall: Math.round((rootAfter.wallMs / rootBefore.wallMs) * 100) / 100,
  };
  const rows = ENTRIES.map(({ entry }, i) => {
    const b = imports.before[i]!;
    const a = imports.after[i]!;
    return `| \`${entry}\` | ${b.cpuMs} | ${a.cpuMs} | ${Math.round((a.cpuMs / b.cpuMs) * 100)} % | ${b.wallMs} | ${a.wallMs} |`;
  });
  const peers = (list: string[]) => (list.length === 0 ? "none" : list.join(", "));
  const markdown = [
    `## Import time and library-only install, before (${before.commit}) and after (${after.commit})`,
    "",
    `Each entry imported in a fresh \`node\` process, the two builds taking turns, ${ROUNDS} rounds; medians (ms).`,
    "",
    "| entry | CPU before | CPU after | after/before | wall before | wall after |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
    "",
    `Root entry: ${Math.round(rootShare.cpu * 100)} % of before in CPU time, ${Math.round(rootShare.wall * 100)} % in wall time (target ≤ ${ROOT_IMPORT_SHARE * 100} %).`,
    "",
    "`npm i <tarball> --omit=dev --omit=peer` in an empty project:",
    "",
    "| | packages | MB on disk | optional peers installed |",
    "| --- | --- | --- | --- |",
    `| before | ${install.before.packages} | ${install.before.mb} | ${peers(install.before.optionalPeersInstalled)} |`,
    `| after | ${install.after.packages} | ${install.after.mb} | ${peers(install.after.optionalPeersInstalled)} |`,
    "",
    `Target: ≤ ${INSTALL_MB_BOUND} MB, none of ${OPTIONAL_PEERS.join(", ")} nor the Copilot runtime.`,
    "",
  ].join("\n");
  return {
    title: "Import time per entry and library-only install size, before and after",
    figures: {
      rounds: ROUNDS,
      sides,
      imports,
      rootShare,
      rootShareTarget: ROOT_IMPORT_SHARE,
      install,
      installMbBound: INSTALL_MB_BOUND,
    },
    markdown,
  };
}
