// Step "grade" (and "re-grade") of the corrective pass: the signal's grade of the current
// reading, or the model's where the setting asks for it ("haiku" always, "auto" where the
// signal is borderline) — never after the last re-query, since nothing could act on it. It
// returns the grade and the pass with the grade recorded.

import type { Grade } from "../types.js";
import { isBorderline } from "./borderline.js";
import { type CorrectivePass, withGrade } from "./corrective-pass.js";
import { gradeWithModel } from "./llm-grade.js";

/** A step's grade and the pass that recorded it. */
export interface Graded {
  pass: CorrectivePass;
  grade: Grade;
}

export async function gradeStep(pass: CorrectivePass, afterLastRequery: boolean): Promise<Graded> {
  const { settings } = pass;
  const started = settings.now();
  const grade = settings.grade;
  const wantModel =
    !afterLastRequery &&
    grade !== undefined &&
    (settings.setting === "haiku" || (settings.setting === "auto" && isBorderline(pass.reading.evidence())));
  if (!wantModel || !grade) {
    const graded = pass.reading.signalGrade;
    const next = { ...pass, gradedByModel: false, graderMs: pass.graderMs + (settings.now() - started) };
    return { pass: withGrade(next, graded), grade: graded };
  }
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
  const next = {
    ...pass,
    usedModel: true,
    gradedByModel: true,
    graderMs: pass.graderMs + (settings.now() - started),
  };
  return { pass: withGrade(next, graded), grade: graded };
}
