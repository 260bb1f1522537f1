// docs/errors.md and the layers' code unions describe the same codes: a code added to a union
// without a row in the table, or a row whose code no union holds, fails here; so does a row
// naming a class that src/ does not define.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BOTS_ERROR_CODES } from "../src/bots/config-error.js";
import { CLI_ERROR_CODES } from "../src/cli/cli-error.js";
import { CONNECTORS_ERROR_CODES } from "../src/connectors/connectors-error.js";
import { CORRECTIVE_ERROR_CODES } from "../src/corrective/corrective-error.js";
import { DEADLINE_ERROR_CODES } from "../src/deadline.js";
import type { ErrorLayer } from "../src/errors.js";
import { EVALUATION_ERROR_CODES } from "../src/evaluation/evaluation-error.js";
import { HOSTS_ERROR_CODES } from "../src/hosts/hosts-error.js";
import { KNOWLEDGE_ERROR_CODES } from "../src/knowledge/knowledge-error.js";
import { LLM_ERROR_CODES } from "../src/llm/llm-error.js";
import { STRATEGIES_ERROR_CODES } from "../src/strategies/strategies-error.js";
import { TELEMETRY_ERROR_CODES } from "../src/telemetry/telemetry-error.js";
import { readSourceFiles } from "./support/src-files.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");

const CODES: Record<ErrorLayer, readonly string[]> = {
  deadline: DEADLINE_ERROR_CODES,
  telemetry: TELEMETRY_ERROR_CODES,
  llm: LLM_ERROR_CODES,
  knowledge: KNOWLEDGE_ERROR_CODES,
  corrective: CORRECTIVE_ERROR_CODES,
  strategies: STRATEGIES_ERROR_CODES,
  bots: BOTS_ERROR_CODES,
  connectors: CONNECTORS_ERROR_CODES,
  hosts: HOSTS_ERROR_CODES,
  evaluation: EVALUATION_ERROR_CODES,
  cli: CLI_ERROR_CODES,
};

/** The table's rows: layer, code and class, each cell's backticks dropped. */
function tableRows(markdown: string): { layer: string; code: string; cls: string }[] {
  return markdown
    .split("\n")
    .filter((line) => /^\| `/.test(line))
    .map((line) => {
      const [layer, code, cls] = line
        .split("|")
        .slice(1, 4)
        .map((cell) => cell.trim().replace(/`/g, ""));
      return { layer: layer!, code: code!, cls: cls! };
    });
}

describe("error codes: docs/errors.md and the unions agree", () => {
  const rows = tableRows(readFileSync(resolve(repo, "docs/errors.md"), "utf8"));

  it("the table has one row for each code of each layer, and no other", () => {
    const documented = rows.map((r) => `${r.layer} ${r.code}`).sort();
    const declared = Object.entries(CODES)
      .flatMap(([layer, codes]) => codes.map((code) => `${layer} ${code}`))
      .sort();
    expect(documented).toEqual(declared);
  });

  it("no layer repeats a code", () => {
    for (const [layer, codes] of Object.entries(CODES)) expect(new Set(codes).size, layer).toBe(codes.length);
  });

  it("every class the table names is defined in src/", () => {
    const defined = new Set(
      readSourceFiles().flatMap(({ text }) => [...text.matchAll(/\bclass\s+(\w+)/g)].map((m) => m[1]!)),
    );
    expect(rows.map((r) => r.cls).filter((cls) => !defined.has(cls))).toEqual([]);
  });
});
