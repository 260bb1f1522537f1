// No function in src/ longer than 120 lines, counted from its first line to its closing brace
// (comments and blank lines included). Biome's noExcessiveLinesPerFunction (biome.json) counts
// only the body's code lines, so a long function with many comments passes it; this counts what
// a reader scrolls through.
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { readSourceFiles, staleEntries } from "./support/src-files.js";

const MAX_FUNCTION_LINES = 120;

/** file → why a longer function is there for now. Each entry must still hold one (no stale entries). */
const PENDING: ReadonlyMap<string, string> = new Map([]);

/** `name (n lines)` for each function in `text` longer than `max` lines. */
function longFunctions(file: string, text: string, max: number): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      const lines = last - first + 1;
      const name = node.name?.getText(source) ?? `function at line ${first + 1}`;
      if (lines > max) found.push(`${file}: ${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe(`functions in src/ are at most ${MAX_FUNCTION_LINES} lines`, () => {
  const files = readSourceFiles();

  it("the count spans a function from its first line to its closing brace", () => {
    const body = Array.from({ length: 4 }, (_, i) => `  // line ${i}`).join("\n");
    const sample = `function four() {\n${body}\n}\nconst ok = () => {\n  return 1;\n};\n`;
    expect(longFunctions("sample.ts", sample, 5)).toEqual(["sample.ts: four (6 lines)"]);
  });

  // Parsing every file of src/ takes a few seconds on a busy machine: a bound, not a speed target.
  it("no function over the limit outside the pending list", { timeout: 60_000 }, () => {
    expect(files.length).toBeGreaterThan(100);
    const long = files
      .filter(({ file }) => !PENDING.has(file))
      .flatMap(({ file, text }) => longFunctions(file, text, MAX_FUNCTION_LINES));
    expect(long).toEqual([]);
  });

  it("every pending entry still has a function over the limit", { timeout: 60_000 }, () => {
    expect(staleEntries(PENDING, files, (f) => longFunctions(f.file, f.text, MAX_FUNCTION_LINES))).toEqual(
      [],
    );
  });
});
