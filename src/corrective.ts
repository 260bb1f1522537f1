// `second-look/corrective`: corrective retrieval as parts: the signal grader, the model grader,
// the orchestrator that grades, re-queries and merges, and the entry a hook or tool calls.

export {
  type CorrectedToolResult,
  type CorrectiveContext,
  correctToolResult,
  type ToolResultCall,
} from "./corrective/correct-tool-result.js";
export {
  isKillSwitchOn,
  type ResolvedCorrectiveConfig,
  resolveCorrectiveConfig,
} from "./corrective/corrective-config.js";
export { CorrectiveError, type CorrectiveErrorCode } from "./corrective/corrective-error.js";
export {
  type CorrectiveRetrievalInput,
  type GraderSetting,
  runCorrectiveRetrieval,
} from "./corrective/corrective-pass.js";
export { createKnowledgeGrader, type KnowledgeGraderOptions } from "./corrective/knowledge-grader.js";
export type { GradeFn, GradeInput } from "./corrective/llm-grade.js";
export { gradeFromResponse, gradeFromText } from "./corrective/signal-grader.js";
export type { CorrectiveMetadata, CorrectiveOutcome, Grade, Verdict } from "./types.js";
