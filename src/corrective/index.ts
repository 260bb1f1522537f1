// Corrective retrieval (design §5): what hooks, the MCP tool and the CLI use.

export { parseSearchArgs, type SearchArgs } from "../protocol/tool-arguments.js";
export {
  type CorrectedToolResult,
  type CorrectiveContext,
  correctToolResult,
  MAX_RESULT_CHARS,
  type ToolResultCall,
} from "./correct-tool-result.js";
export {
  type GradeFn,
  type GradeInput,
  normalizeGrade,
  REASON_GRADER_UNAVAILABLE,
  REASON_GRADER_UNPARSEABLE,
} from "./llm-grade.js";
export {
  type CorrectiveRetrievalInput,
  DEFAULT_REQUERY_TIMEOUT_MS,
  type GraderSetting,
  runCorrectiveRetrieval,
} from "./orchestrator.js";
export { gradeFromResponse, gradeFromText } from "./signal-grader.js";
