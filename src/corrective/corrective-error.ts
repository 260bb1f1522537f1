// The corrective layer's error codes (docs/errors.md says what each means). The pass itself never
// throws past its edge: a failed grade or re-query leaves the original text; these reach its log.
import { SecondLookError } from "../errors.js";

export const CORRECTIVE_ERROR_CODES = ["malformed-response"] as const;
export type CorrectiveErrorCode = (typeof CORRECTIVE_ERROR_CODES)[number];

/** An error of the corrective layer; a subclass may carry more. */
export class CorrectiveError extends SecondLookError<CorrectiveErrorCode> {
  constructor(code: CorrectiveErrorCode, message: string, options?: { cause?: unknown }) {
    super("corrective", code, message, options);
    this.name = "CorrectiveError";
  }
}
