// Step "grade" (and "re-grade") of the corrective pass: the signal's grade of the current
// reading, or the model's where the setting asks for it ("haiku" always, "auto" where the
// signal is borderline) — never after the last re-query, since nothing could act on it.

import type { Grade } from "../types.js";
import { isBorderline } from "./borderline.js";
import type { CorrectivePass } from "./corrective-pass.js";
import { gradeWithModel } from "./llm-grade.js";

export async function gradeStep(pass: CorrectivePass, afterLastRequery: boolean): Promise<Grade> {
  const { settings } = pass;
  const started = settings.now();
  pass.gradedByModel = false;
  try {
    const grade = settings.grade;
    const wantModel =
      !afterLastRequery &&
      grade !== undefined &&
      (settings.setting === "haiku" ||
        (settings.setting === "auto" && isBorderline(pass.reading.evidence())));
    if (!wantModel || !grade) return pass.reading.signalGrade;
    pass.usedModel = true;
    const graded = await gradeWithModel(
      grade,
      {
        question: settings.question,
        text: pass.body,
        digestSource: pass.digestSource,
        collections: settings.allowed,
        ...(pass.documentLanguage ? { documentLanguage: pass.documentLanguage } : {}),
        ...(pass.mismatch ? { queryLanguage: pass.mismatch.query.name } : {}),
      },
      {
        timeoutMs: settings.graderTimeoutMs,
        ...(settings.signal ? { signal: settings.signal } : {}),
        log: settings.log,
      },
    );
    // A failed or unusable model grade is `correct` and carries nothing: the text stands.
    pass.gradedByModel = true;
    return graded;
  } finally {
    pass.graderMs += settings.now() - started;
  }
}

/** A grade recorded in the pass's metadata. */
export function recordGrade(pass: CorrectivePass, grade: Grade): void {
  pass.verdicts.push(grade.verdict);
  pass.reasons.push(grade.reason);
}
