// The evaluation layer's error codes (docs/errors.md says what each means).
import { layerError } from "../errors.js";

export const EVALUATION_ERROR_CODES = [
  "bad-data",
  "bad-questions",
  "bad-gate",
  "unmatched-relevant",
  "bad-calibration-data",
  "unexpected-backend",
] as const;
export type EvaluationErrorCode = (typeof EVALUATION_ERROR_CODES)[number];

/** An error of the evaluation layer; a subclass may carry more. */
export class EvaluationError extends layerError<EvaluationErrorCode>("evaluation", "EvaluationError") {}
