// The telemetry layer's error codes (docs/errors.md says what each means).
import { layerError } from "../errors.js";

export const TELEMETRY_ERROR_CODES = ["tracer-registered", "missing-package"] as const;
export type TelemetryErrorCode = (typeof TELEMETRY_ERROR_CODES)[number];

/** An error of the telemetry layer; a subclass may carry more. */
export class TelemetryError extends layerError<TelemetryErrorCode>("telemetry", "TelemetryError") {}
