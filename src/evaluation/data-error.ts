import { EvaluationError } from "./evaluation-error.js";

/** A judged collection's file (Cranfield, SMART, BEIR) that does not parse; the message names file and line. */
export class EvaluationDataError extends EvaluationError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("bad-data", message, options);
    this.name = "EvaluationDataError";
  }
}
