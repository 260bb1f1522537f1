// Says at the end of `npm test` which tests were skipped and why, so a run without the judged
// data (`../shared`, absent on a clean clone) is visibly partial rather than silently green.
// The reason is the skipped suite's or test's own name: tests that skip name their condition
// there ("… (skipped when ../shared/data/cranfield is absent)").
import { relative } from "node:path";
import type { Reporter, TestCase, TestModule } from "vitest/node";

export default class SkipSummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const byFile = new Map<string, Map<string, number>>();
    let total = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        if (test.result().state !== "skipped") continue;
        total++;
        const file = relative(process.cwd(), module.moduleId);
        const reasons = byFile.get(file) ?? new Map<string, number>();
        const reason = skippedUnit(test);
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        byFile.set(file, reasons);
      }
    }
    if (total === 0) return;
    const lines = [`\n${total} test${total === 1 ? "" : "s"} skipped:`];
    for (const [file, reasons] of byFile) {
      for (const [reason, count] of reasons) lines.push(`  ${file}: ${count} × ${reason}`);
    }
    process.stdout.write(`${lines.join("\n")}\n`);
  }
}

/** The outermost skipped suite's name (a whole group skipped for one reason), else the test's. */
function skippedUnit(test: TestCase): string {
  let unit = test.name;
  let parent = test.parent;
  while (parent.type === "suite") {
    if (parent.options.mode === "skip") unit = parent.name;
    parent = parent.parent;
  }
  return unit;
}
