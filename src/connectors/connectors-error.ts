// The connectors layer's error codes (docs/errors.md says what each means): why a bot runtime's
// `ask` rejected, and what stops the MCP server from starting or taking a call.
import { layerError } from "../errors.js";

/** Why `ask` rejected (BotRuntimeError). */
export const BOT_RUNTIME_ERROR_CODES = [
  "no_model", // no BYOK provider and no Copilot sign-in
  "config", // the bot description cannot work (e.g. the API-key variable is unset)
  "tool_call_cap", // the model asked for more tool calls than `limits.maxToolCalls`
  "timeout", // the question overran `limits.timeoutMs`
  "aborted", // the caller's signal fired
  "closed", // the runtime was closed
  "model_unreachable", // the BYOK provider's server took no connection; no session was started
  "session", // the runtime reported an error for the turn
] as const;
export type BotRuntimeErrorCode = (typeof BOT_RUNTIME_ERROR_CODES)[number];

/** What stops the MCP server from starting or taking a call; a model provider's package missing. */
const SERVER_CODES = ["busy", "mcp-listen", "mcp-bot-names", "mcp-tokens", "missing-package"] as const;

export const CONNECTORS_ERROR_CODES = [...BOT_RUNTIME_ERROR_CODES, ...SERVER_CODES] as const;
export type ConnectorsErrorCode = (typeof CONNECTORS_ERROR_CODES)[number];

/** An error of the connectors layer; a subclass may carry more. */
export class ConnectorsError extends layerError<ConnectorsErrorCode>("connectors", "ConnectorsError") {}
