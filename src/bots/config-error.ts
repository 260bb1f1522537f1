import { SecondLookError } from "../errors.js";

/** The bots layer's error codes (docs/errors.md): a config that cannot be used, a bot not found. */
export const BOTS_ERROR_CODES = ["config", "not-found"] as const;
export type BotsErrorCode = (typeof BOTS_ERROR_CODES)[number];

/**
 * A bot's config.json could not be used. `problems` holds one self-contained line per problem
 * (each names the file, the key path and the offending value); `message` is those lines joined,
 * so printing the error is enough to fix the file.
 */
export class BotConfigError extends SecondLookError<BotsErrorCode> {
  override readonly name = "BotConfigError";

  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super("bots", "config", problems.join("\n"));
  }
}
