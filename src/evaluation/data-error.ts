import { SecondLookError } from "../errors.js";

/** A judged collection's file (Cranfield, SMART, BEIR) that does not parse; the message names file and line. */
export class EvaluationDataError extends SecondLookError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("evaluation", "bad-data", message, options);
    this.name = "EvaluationDataError";
  }
}
