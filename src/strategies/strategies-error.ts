// The strategies layer's error codes (docs/errors.md says what each means).
import { layerError } from "../errors.js";

export const STRATEGIES_ERROR_CODES = ["model-turn", "rerank-failed"] as const;
export type StrategiesErrorCode = (typeof STRATEGIES_ERROR_CODES)[number];

/** An error of the strategies layer; a subclass may carry more. */
export class StrategiesError extends layerError<StrategiesErrorCode>("strategies", "StrategiesError") {}
