// The end-of-run summary of skipped tests: each file with how many tests it skipped and the
// reason, a wholly skipped group named once.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TestModule } from "vitest/node";
import SkipSummaryReporter from "./skip-summary-reporter.js";

type Node = { type: string; name?: string; options?: { mode: string }; parent?: Node };

function fakeModule(moduleId: string, tests: { name: string; state: string; parent: Node }[]): TestModule {
  return {
    moduleId,
    children: {
      *allTests() {
        for (const t of tests) yield { name: t.name, parent: t.parent, result: () => ({ state: t.state }) };
      },
    },
  } as unknown as TestModule;
}

afterEach(() => vi.restoreAllMocks());

describe("SkipSummaryReporter", () => {
  it("lists skipped tests per file with the reason their suite or test names", () => {
    const root: Node = { type: "module" };
    const skippedSuite: Node = {
      type: "suite",
      name: "Cranfield acceptance (skipped when ../shared/data/cranfield/cran.all.1400 is absent)",
      options: { mode: "skip" },
      parent: root,
    };
    const running: Node = { type: "suite", name: "layouts", options: { mode: "run" }, parent: root };
    const written: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    new SkipSummaryReporter().onTestRunEnd([
      fakeModule(`${process.cwd()}/test/a.test.ts`, [
        { name: "one", state: "skipped", parent: skippedSuite },
        { name: "two", state: "skipped", parent: skippedSuite },
        { name: "three", state: "passed", parent: running },
      ]),
      fakeModule(`${process.cwd()}/test/b.test.ts`, [
        {
          name: "on the real collection (skipped when ../shared/data is absent)",
          state: "skipped",
          parent: running,
        },
      ]),
    ]);
    expect(written.join("")).toBe(
      [
        "",
        "3 tests skipped:",
        "  test/a.test.ts: 2 × Cranfield acceptance (skipped when ../shared/data/cranfield/cran.all.1400 is absent)",
        "  test/b.test.ts: 1 × on the real collection (skipped when ../shared/data is absent)",
        "",
      ].join("\n"),
    );
  });

  it("says nothing when nothing was skipped", () => {
    const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    new SkipSummaryReporter().onTestRunEnd([
      fakeModule("x.test.ts", [{ name: "t", state: "passed", parent: { type: "module" } }]),
    ]);
    expect(write).not.toHaveBeenCalled();
  });
});
