// The package as another project gets it: `npm pack`, then `npm i ./second-look-*.tgz` with
// production dependencies only in an empty folder, then the installed command — `--version`,
// `search` on a bot folder, and `mcp` answering an MCP client over stdio. Built once per run
// (the pack runs `prepare`, which compiles dist/); the install reads the npm cache first.
import { execFile } from "node:child_process";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_THREE_PHRASE, threePagePdf } from "../fixtures/pdf/three-page-manual.js";

const run = promisify(execFile);
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const VERSION = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string }).version;
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

/**
 * The environment without what `npm test` itself exported (npm_lifecycle_*, npm_package_*,
 * npm_config_omit, …), so the nested npm behaves as in a user's shell; the cache and registry
 * settings are kept so the install can reuse what `npm ci` fetched.
 */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const lower = key.toLowerCase();
    if (lower.startsWith("npm_") && lower !== "npm_config_cache" && lower !== "npm_config_registry") continue;
    env[key] = value;
  }
  return env;
}

/** Every installed package folder (`node_modules/<name>` or `node_modules/@scope/<name>`) at any depth. */
function installedPackages(nodeModules: string): { name: string; dir: string }[] {
  const found: { name: string; dir: string }[] = [];
  const pending = [nodeModules];
  while (pending.length > 0) {
    const folder = pending.pop()!;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
      const names = entry.name.startsWith("@")
        ? readdirSync(join(folder, entry.name)).map((n) => `${entry.name}/${n}`)
        : [entry.name];
      for (const name of names) {
        const dir = join(folder, name);
        found.push({ name, dir });
        if (existsSync(join(dir, "node_modules"))) pending.push(join(dir, "node_modules"));
      }
    }
  }
  return found;
}

/** Disk space a folder takes, counted as `du` does (allocated blocks, each file once). */
function diskBytes(root: string): number {
  let bytes = 0;
  const seen = new Set<string>();
  const pending = [root];
  while (pending.length > 0) {
    const path = pending.pop()!;
    const stat = lstatSync(path);
    const inode = `${stat.dev}:${stat.ino}`;
    if (seen.has(inode)) continue;
    seen.add(inode);
    bytes += stat.blocks * 512;
    if (stat.isDirectory()) for (const name of readdirSync(path)) pending.push(join(path, name));
  }
  return bytes;
}

const MB = 1024 * 1024;
/**
 * The installed tree measured 245 MB on linux-x64 (310 MB while pdf.js was a dependency), 113 MB
 * of it the Copilot runtime's platform binary, which `ask` and the Copilot SDK connector run; the
 * canvas build pdf.js brings as a dependency would add 33 MB and take it past this.
 */
const INSTALLED_MB_BOUND = 260;

describe("the packed package installed into another project (production dependencies only)", () => {
  let work = "";
  let app = "";
  let bin = "";
  let bot = "";

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "second-look-pack-"));
    const env = cleanEnv();
    await run(NPM, ["pack", "--pack-destination", work, "--silent"], {
      cwd: REPO,
      env,
      maxBuffer: 16 * 1024 * 1024,
    });
    const tarball = readdirSync(work).find((f) => /^second-look-.*\.tgz$/.test(f));
    if (!tarball) throw new Error(`npm pack wrote no tarball into ${work}`);
    app = join(work, "app");
    cpSync(join(REPO, "test/fixtures/package-app"), app, { recursive: true });
    await run(
      NPM,
      [
        "install",
        join(work, tarball),
        "--omit=dev",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--silent",
      ],
      { cwd: app, env, maxBuffer: 16 * 1024 * 1024 },
    );
    bin = join(app, "node_modules/.bin/second-look");
    bot = join(work, "handbook");
    cpSync(join(REPO, "bots/handbook"), bot, { recursive: true });
  }, 600_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("installs without any dev dependency and ships dist/", () => {
    const installed = join(app, "node_modules");
    expect(existsSync(join(installed, "second-look/dist/cli/main.js"))).toBe(true);
    for (const dev of ["typescript", "vitest", "tsx", "@biomejs/biome", "better-sqlite3"]) {
      expect(existsSync(join(installed, dev)), dev).toBe(false);
    }
    // Sources and tests are not part of the package.
    expect(existsSync(join(installed, "second-look/src"))).toBe(false);
    expect(existsSync(join(installed, "second-look/test"))).toBe(false);
  });

  it("is trimmed of what the product never uses: no pdfjs-dist, no canvas build", () => {
    const installed = join(app, "node_modules");
    const names = installedPackages(installed).map((p) => p.name);
    expect(names).toContain("@github/copilot-sdk");
    expect(names.filter((n) => n === "pdfjs-dist" || n.startsWith("@napi-rs/"))).toEqual([]);
    // The pdf.js build the PDF loader reads ships inside the package instead.
    const pdfjs = join(installed, "second-look/vendor/pdfjs-dist");
    for (const file of ["legacy/build/pdf.mjs", "legacy/build/pdf.worker.mjs", "cmaps", "standard_fonts"]) {
      expect(existsSync(join(pdfjs, file)), file).toBe(true);
    }
    const sizes = [installed, join(installed, "second-look"), pdfjs, join(installed, "@github")].map(
      (dir) => `${(diskBytes(dir) / MB).toFixed(1)} MB ${dir.slice(installed.length) || "node_modules"}`,
    );
    console.info(`installed size (as du counts it):\n  ${sizes.join("\n  ")}`);
    expect(diskBytes(installed) / MB).toBeLessThan(INSTALLED_MB_BOUND);
  });

  it("npx second-look search reads a PDF through the shipped pdf.js, without a warning", async () => {
    const pdfBot = join(work, "pdf-bot");
    mkdirSync(join(pdfBot, "docs"), { recursive: true });
    writeFileSync(join(pdfBot, "docs/manual.pdf"), threePagePdf(true));
    writeFileSync(
      join(pdfBot, "config.json"),
      JSON.stringify({
        knowledge: { backend: "embedded", collections: { manuals: { paths: ["docs/**/*.pdf"] } } },
      }),
    );
    const { stdout, stderr } = await run(bin, ["search", pdfBot, PAGE_THREE_PHRASE, "--json"], {
      cwd: app,
      env: { ...cleanEnv(), SECOND_LOOK_LOG_LEVEL: "warn" },
    });
    const json = JSON.parse(stdout) as { response: { results: { id: string }[] } };
    expect(json.response.results[0]?.id).toBe("docs/manual.pdf");
    expect(stderr).not.toMatch(/Warning|canvas|skipped/i);
  });

  it("npx second-look --version prints the package's version", async () => {
    const { stdout } = await run(bin, ["--version"], { cwd: app, env: cleanEnv() });
    expect(stdout.trim()).toBe(VERSION);
  });

  it("npx second-look search <bot path> answers from the bot's documents", async () => {
    const { stdout } = await run(bin, ["search", bot, "how many vacation days do I get", "--json"], {
      cwd: app,
      env: { ...cleanEnv(), SECOND_LOOK_LOG_LEVEL: "warn" },
    });
    const json = JSON.parse(stdout) as { response: { results: { id: string }[] } };
    expect(json.response.results.length).toBeGreaterThan(0);
  });

  it("npx second-look mcp <bot path> lists its tools and answers a search over stdio", async () => {
    const transport = new StdioClientTransport({
      command: bin,
      args: ["mcp", bot],
      cwd: app,
      env: { ...(cleanEnv() as Record<string, string>), SECOND_LOOK_LOG_LEVEL: "warn" },
      stderr: "pipe",
    });
    const client = new Client({ name: "package-test", version: "0.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        "get_document",
        "list_collections",
        "search_knowledge",
      ]);
      const result = await client.callTool({
        name: "search_knowledge",
        arguments: { query: "carry over unused PTO" },
      });
      const text = (result.content as { text?: string }[]).map((c) => c.text ?? "").join("");
      expect(result.isError).not.toBe(true);
      expect(text).toMatch(/doc_id: `docs\/time-off\/annual-leave.md`/);
    } finally {
      await client.close();
    }
  });

  it("finds a bot folder in the project: `bots` lists ./my-bot, `serve --bots ./my-bot` resolves it", async () => {
    cpSync(bot, join(app, "my-bot"), { recursive: true });
    const env = { ...cleanEnv(), SECOND_LOOK_LOG_LEVEL: "warn" };
    const listed = await run(bin, ["bots", "--json"], { cwd: app, env });
    expect((JSON.parse(listed.stdout) as { name: string }[]).map((e) => e.name)).toEqual(["my-bot"]);
    // No Slack or Teams credentials: exit 1 naming what would enable the bot, not "unknown bot".
    const served = await run(bin, ["serve", "--bots", "./my-bot"], { cwd: app, env }).then(
      () => ({ stderr: "exited 0" }),
      (error: { stderr: string }) => error,
    );
    expect(served.stderr).toContain("my-bot: Slack: set SLACK_BOT_TOKEN_MY_BOT");
  });
});

describe("a clone installed without dev dependencies", () => {
  it("prepare succeeds without TypeScript and says how to get dist/", async () => {
    const clone = mkdtempSync(join(tmpdir(), "second-look-omit-dev-"));
    try {
      cpSync(join(REPO, "scripts/prepare.mjs"), join(clone, "scripts/prepare.mjs"));
      writeFileSync(join(clone, "package.json"), JSON.stringify({ name: "second-look", type: "module" }));
      const { stderr } = await run(process.execPath, [join(clone, "scripts/prepare.mjs")], { cwd: clone });
      expect(stderr).toMatch(/TypeScript is not installed/);
      expect(stderr).toMatch(/npm ci/);
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  });

  it("the command without dist/ exits 1 with one line saying how to build it", async () => {
    const clone = mkdtempSync(join(tmpdir(), "second-look-no-dist-"));
    try {
      cpSync(join(REPO, "bin/second-look.js"), join(clone, "bin/second-look.js"));
      writeFileSync(join(clone, "package.json"), JSON.stringify({ name: "second-look", type: "module" }));
      const failure = await run(process.execPath, [join(clone, "bin/second-look.js"), "--version"]).then(
        () => null,
        (error: { code?: number; stderr?: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stderr?.trim().split("\n")).toHaveLength(1);
      expect(failure?.stderr).toMatch(/dist\/ is not built/);
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  });
});
