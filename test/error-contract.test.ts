// The error contract (src/errors.ts, README): every error this library throws on purpose is a
// SecondLookError with a layer and a code. This walks src/ and fails on a plain
// `throw new Error(` or a class that `extends Error` directly, outside the allow-list below.
import { describe, expect, it } from "vitest";
import { readSourceFiles, staleEntries } from "./support/src-files.js";

/** file (relative to the repository) → why a plain Error is right there. */
const ALLOWED: ReadonlyMap<string, string> = new Map([
  ["src/errors.ts", "SecondLookError itself: the one class that extends Error directly"],
]);

const PLAIN_ERROR = [
  { rule: "throw new Error", pattern: /\bthrow\s+new\s+Error\s*\(/g },
  { rule: "extends Error", pattern: /\bextends\s+Error\b(?![\w$])/g },
];

/** `file:line: rule` for each plain error in `text`; comment lines are not code. */
function plainErrors(file: string, text: string): string[] {
  const found: string[] = [];
  const lines = text.split("\n");
  for (const { rule, pattern } of PLAIN_ERROR) {
    for (const match of text.matchAll(pattern)) {
      const line = text.slice(0, match.index).split("\n").length;
      const code = lines[line - 1]!.trimStart();
      if (code.startsWith("//") || code.startsWith("*") || code.startsWith("/*")) continue;
      found.push(`${file}:${line}: ${rule}`);
    }
  }
  return found;
}

describe("error contract: every deliberate error is a SecondLookError", () => {
  const files = readSourceFiles([".ts", ".mts", ".cts", ".js", ".mjs"]);

  it("the scan reads src/ and recognises a plain error", () => {
    expect(files.length).toBeGreaterThan(100);
    const sample = [
      "// throw new Error('a comment')",
      "  throw new Error(`x`);",
      "class A extends Error {}",
      "class B extends SecondLookError {}",
      "class C extends ErrorLike {}",
    ].join("\n");
    expect(plainErrors("sample.ts", sample)).toEqual([
      "sample.ts:2: throw new Error",
      "sample.ts:3: extends Error",
    ]);
  });

  it("no plain throw new Error or extends Error outside the allow-list", () => {
    const offending = files
      .filter(({ file }) => !ALLOWED.has(file))
      .flatMap((f) => plainErrors(f.file, f.text));
    expect(offending).toEqual([]);
  });

  it("every allow-list entry still holds a plain error (the list does not go stale)", () => {
    expect(staleEntries(ALLOWED, files, (f) => plainErrors(f.file, f.text))).toEqual([]);
  });
});
