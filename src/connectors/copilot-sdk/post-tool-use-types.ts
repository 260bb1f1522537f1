// SDK 1.0.14 declares the PostToolUse types but does not export them from the package entry
// (importing them is TS2305), so they are derived from the exported `SessionHooks`.

import type { SessionHooks } from "@github/copilot-sdk";

export type PostToolUseHandler = NonNullable<SessionHooks["onPostToolUse"]>;
export type PostToolUseHookInput = Parameters<PostToolUseHandler>[0];
export type PostToolUseHookOutput = Exclude<Awaited<ReturnType<PostToolUseHandler>>, void>;
