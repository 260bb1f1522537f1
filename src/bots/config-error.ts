import { SecondLookError } from "../errors.js";
/**
 * A bot's config.json could not be used. `problems` holds one self-contained line per problem
 * (each names the file, the key path and the offending value); `message` is those lines joined,
 * so printing the error is enough to fix the file.
 */
export class BotConfigError extends SecondLookError {
  override readonly name = "BotConfigError";

  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super("bots", "config", problems.join("\n"));
  }
}
