// Turns the runtime's turn errors into one-line BotRuntimeErrors a chat host can show as is.

import { BotRuntimeError } from "../bot-runtime.js";

// What runtime 1.0.85 reports when neither a BYOK provider nor a Copilot sign-in is available:
// "Execution failed: InvalidArg, No GitHub OAuth token or Copilot HMAC key provided".
const NO_MODEL_PATTERN = /No GitHub OAuth token|Copilot HMAC key|not authenticated|not logged in/i;

export function isNoModelMessage(message: string): boolean {
  return NO_MODEL_PATTERN.test(message);
}

export function sessionErrorToBotError(botName: string, message: string, cause?: unknown): BotRuntimeError {
  if (isNoModelMessage(message)) {
    return new BotRuntimeError(
      "no_model",
      `Bot '${botName}' has no model to talk to: set "model" and "provider" (with "apiKeyEnv") in its config.json, or sign in to GitHub Copilot (e.g. COPILOT_GITHUB_TOKEN).`,
      { cause },
    );
  }
  const firstLine = message.split("\n", 1)[0]?.trim() || "unknown error";
  return new BotRuntimeError("session", `Bot '${botName}': the Copilot runtime failed: ${firstLine}`, {
    cause,
  });
}
