// The packed package as another project installs it: the environment a nested npm runs in,
// and what an installed node_modules holds (its packages, its size on disk). Shared by the
// package test (test/package/installed-package.test.ts) and the imports bench.
import { execFile } from "node:child_process";
import { existsSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

export const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
export const NPX = process.platform === "win32" ? "npx.cmd" : "npx";

/**
 * The environment without what `npm test` / `npm run bench` exported (npm_lifecycle_*,
 * npm_package_*, npm_config_omit, …), so a nested npm behaves as in a user's shell; the cache
 * and registry settings are kept so an install can reuse what `npm ci` fetched.
 */
export function cleanNpmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const lower = key.toLowerCase();
    if (lower.startsWith("npm_") && lower !== "npm_config_cache" && lower !== "npm_config_registry") continue;
    env[key] = value;
  }
  return env;
}

/** Every installed package folder (`node_modules/<name>` or `node_modules/@scope/<name>`) at any depth. */
export function installedPackages(nodeModules: string): { name: string; dir: string }[] {
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
export function diskBytes(root: string): number {
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

export const MB = 1024 * 1024;

/**
 * What a library user leaves out: the hosts, the database driver, the exporter, the model
 * providers' clients, the Copilot SDK (and its runtime). package.json lists them as peers.
 */
export const OPTIONAL_PEERS = [
  "openai",
  "@anthropic-ai/sdk",
  "@slack/bolt",
  "@microsoft/teams.apps",
  "pg",
  "pg-copy-streams",
  "@opentelemetry/exporter-trace-otlp-http",
  "@github/copilot-sdk",
] as const;

/**
 * `npm install <tarball> --omit=…` in `project` (a folder with a package.json), quietly, reading
 * the npm cache first: `["dev"]` as a project that uses the command, `["dev", "peer"]` as a
 * library user who needs none of the peers.
 */
export async function installTarball(
  tarball: string,
  project: string,
  omit: readonly string[],
): Promise<void> {
  await promisify(execFile)(
    NPM,
    [
      "install",
      tarball,
      ...omit.map((o) => `--omit=${o}`),
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--silent",
    ],
    { cwd: project, env: cleanNpmEnv(), maxBuffer: 16 * 1024 * 1024 },
  );
}
