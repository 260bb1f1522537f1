// Public API: re-exports only.

export { createLogger, logger, setLogger } from "./telemetry/logger.js";
export type * from "./types.js";
