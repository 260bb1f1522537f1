// Every chat platform `serve` can put a bot on, in the order they start. Adding one is a folder
// with its Platform entry (see slack/platform.ts) and one line here.
import type { Platform } from "./platform.js";
import { slackPlatform } from "./slack/platform.js";
import { teamsPlatform } from "./teams/platform.js";

export const PLATFORMS: readonly Platform[] = [slackPlatform, teamsPlatform];
