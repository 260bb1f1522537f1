import { describe, expect, it } from "vitest";
import { gradeStep, withGrade } from "../../src/corrective/corrective-pass.js";
import { hit, response, scriptedGrader, stubBackend } from "./corrective-fixtures.js";
import { passOver } from "./pass-support.js";

const weak = response("vacation", [hit("wiki", "1", "Old doc", 0.2)]);
const backend = stubBackend(() => response("x", []));

describe("gradeStep", () => {
  it("signal: the reading's own grade, no model asked", async () => {
    const grade = scriptedGrader({ verdict: "correct", reason: "ok" });
    const pass = passOver(weak, { backend, grade });
    const graded = await gradeStep(pass, false);
    expect(graded.grade).toMatchObject({ verdict: "insufficient" });
    expect(grade.inputs).toHaveLength(0);
    expect(graded.pass.usedModel).toBe(false);
  });

  it("haiku: the model grades the body from its digest source, and the pass records it", async () => {
    const grade = scriptedGrader({ verdict: "ambiguous", reason: "unsure" });
    const pass = passOver(weak, { backend, grade, grader: "haiku", question: "how much leave?" });
    const graded = await gradeStep(pass, false);
    expect(graded.grade).toEqual({ verdict: "ambiguous", reason: "unsure" });
    expect(grade.inputs).toEqual([
      { question: "how much leave?", text: pass.body, digestSource: pass.digestSource },
    ]);
    expect(graded.pass).toMatchObject({ usedModel: true, gradedByModel: true });
  });

  it("no model after the last re-query", async () => {
    const grade = scriptedGrader({ verdict: "ambiguous", reason: "unsure" });
    const pass = passOver(weak, { backend, grade, grader: "haiku" });
    const graded = await gradeStep(pass, true);
    expect(graded.grade.verdict).toBe("insufficient");
    expect(grade.inputs).toHaveLength(0);
    expect(graded.pass.gradedByModel).toBe(false);
  });

  it("withGrade adds the verdict and reason", () => {
    const pass = withGrade(passOver(weak, { backend }), { verdict: "correct", reason: "fine" });
    expect(pass.verdicts).toEqual(["correct"]);
    expect(pass.reasons).toEqual(["fine"]);
  });
});
