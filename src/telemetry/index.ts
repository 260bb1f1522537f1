// Telemetry (design §9): the tracer, span names, the tool-call span helper. captureSpans and
// renderSpanTree (span-tree.js) are left out on purpose: they load the SDK, which only a CLI
// run needs.
export { emitGradeSpan, startRequerySpan } from "./corrective-spans.js";
export { createLogger, type Logger, logger, setLogger } from "./logger.js";
export * from "./span-names.js";
export { withToolSpan } from "./tool-span.js";
export { TRACER_NAME, tracer } from "./tracer.js";
