// What each entry point loads when imported (issue 23, "a lean library"): the packages reached
// through static imports from src/<entry>.ts. Type-only imports are erased by the compiler and
// dynamic `import()` runs on first use, so neither counts. bench/imports.bench.ts measures the time.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { OPTIONAL_PEERS } from "../support/installed-tree.js";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");
/** `import … from "x"` / `export … from "x"` / `import "x"`, not `import type` / `export type`. */
const STATIC_IMPORT = /^(?:import|export)\s+(?!type\s)(?:[^;"']*?\sfrom\s+)?["']([^"']+)["']/gms;

/** The npm packages (and node: modules) an entry loads at import time. */
function staticPackages(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const pending = [join(SRC, entry)];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(STATIC_IMPORT)) {
      const specifier = match[1]!;
      if (specifier.startsWith(".")) pending.push(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
      else if (!specifier.startsWith("node:")) {
        const parts = specifier.split("/");
        packages.add(specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!);
      }
    }
  }
  return packages;
}

// The hosts, the database driver, the exporter, the model providers' clients, the Copilot SDK.
const HOST_DATABASE_EXPORTER: readonly string[] = OPTIONAL_PEERS;

describe("entry points load no host, database or exporter code", () => {
  it.each(["index.ts", "corrective.ts"])("%s", (entry) => {
    const packages = staticPackages(entry);
    expect([...packages].filter((p) => HOST_DATABASE_EXPORTER.includes(p))).toEqual([]);
    // Nor what only some callers need: the HTTP client, the pretty logger, the stemmers.
    for (const lazy of ["undici", "pino-pretty", "snowball-stemmers", "@opentelemetry/sdk-trace-base"]) {
      expect(packages.has(lazy), lazy).toBe(false);
    }
  });

  it("the scan sees what an entry does load", () => {
    // The Copilot SDK connector's entry loads the SDK: the check above is not vacuous.
    expect(staticPackages("copilot-sdk.ts").has("@github/copilot-sdk")).toBe(true);
    expect(staticPackages("engine.ts").has("undici")).toBe(true);
  });
});
