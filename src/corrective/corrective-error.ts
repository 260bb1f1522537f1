// The corrective layer's error codes (docs/errors.md says what each means). The pass itself never
// throws past its edge: a failed grade or re-query leaves the original text; these reach its log.
import { layerError } from "../errors.js";

export const CORRECTIVE_ERROR_CODES = ["malformed-response"] as const;
export type CorrectiveErrorCode = (typeof CORRECTIVE_ERROR_CODES)[number];

/** An error of the corrective layer; a subclass may carry more. */
export class CorrectiveError extends layerError<CorrectiveErrorCode>("corrective", "CorrectiveError") {}
