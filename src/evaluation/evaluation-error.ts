// The evaluation layer's error codes (docs/errors.md says what each means).
import { layerError } from "../errors.js";

/** A judged file or an `eval` option that does not parse. */
const INPUT_CODES = ["bad-data", "bad-questions", "bad-gate"] as const;
/** A run that cannot go on with what it was given. */
const RUN_CODES = ["unmatched-relevant", "bad-calibration-data", "unexpected-backend"] as const;

export const EVALUATION_ERROR_CODES = [...INPUT_CODES, ...RUN_CODES] as const;
export type EvaluationErrorCode = (typeof EVALUATION_ERROR_CODES)[number];

/** An error of the evaluation layer; a subclass may carry more. */
export class EvaluationError extends layerError<EvaluationErrorCode>("evaluation", "EvaluationError") {}
