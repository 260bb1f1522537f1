#!/usr/bin/env node
// Completes package-lock.json with the other-platform builds of optional dependencies that the
// registry this lock was made against does not serve (it answers 404 for some darwin/win32/musl
// builds). npm leaves those packages out of the lock, but `npm ci` still expects an entry for
// every optional dependency a package declares, so it refuses the lock on a clean machine.
// Each added entry is what npm writes against a complete registry: the pinned version, marked
// optional, restricted to its platform — so npm never fetches it on any other platform.
// Idempotent: run it after `npm install` changes the lock (`npm run lock` does both).
import { readFileSync, writeFileSync } from "node:fs";

const LOCK = new URL("../package-lock.json", import.meta.url);
const EXACT_VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;
const PLATFORM =
  /-(darwin|linux|linuxmusl|win32|android|freebsd|openbsd|netbsd|sunos|aix)-(x64|arm64|arm|ia32|ppc64|s390x|riscv64|loong64)(?:-(gnu|musl|msvc|eabi))?$/;

const lock = JSON.parse(readFileSync(LOCK, "utf8"));
const packages = lock.packages;
const added = [];
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (packages[key] || packages[`${path}/${key}`] || !EXACT_VERSION.test(spec)) continue;
    const platform = PLATFORM.exec(name);
    if (!platform) continue;
    const [, os, cpu, variant] = platform;
    const libc = os === "linuxmusl" || variant === "musl" ? "musl" : undefined;
    packages[key] = {
      version: spec,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      os: [os === "linuxmusl" ? "linux" : os],
      cpu: [cpu],
      ...(libc ? { libc: [libc] } : {}),
    };
    added.push(`${name}@${spec}`);
  }
}
if (added.length) {
  const [root, ...rest] = Object.keys(packages);
  lock.packages = Object.fromEntries([root, ...rest.sort()].map((k) => [k, packages[k]]));
  writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
}
process.stdout.write(
  added.length ? `added to package-lock.json:\n  ${added.join("\n  ")}\n` : "package-lock.json is complete\n",
);
