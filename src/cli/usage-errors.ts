// A usage mistake (an unknown option, a missing argument) is one line and a hint, not the whole
// help: `error: unknown option '--foo' (did you mean --force?)`, then `Run second-look search
// --help for usage.`, exit 2, as POSIX tools report a usage error.
import type { Command, CommanderError } from "commander";

/** The exit status of a usage error (the command line itself is wrong). */
export const USAGE_EXIT_CODE = 2;

/** Commander's codes for the command line being wrong, as opposed to help, version or a run. */
const USAGE_ERROR_CODES = new Set([
  "commander.unknownOption",
  "commander.unknownCommand",
  "commander.missingArgument",
  "commander.optionMissingArgument",
  "commander.missingMandatoryOptionValue",
  "commander.excessArguments",
  "commander.invalidArgument",
  "commander.conflictingOption",
]);

export function isUsageError(error: CommanderError): boolean {
  return USAGE_ERROR_CODES.has(error.code);
}

/** Commander's message (the suggestion on a line of its own) as one line, then the hint. */
export function usageErrorText(message: string, commandPath: string): string {
  const line = message
    .trim()
    .replace(/\s*\n\s*\(Did you mean (.+?)\?\)/, " (did you mean $1?)")
    .split("\n")
    .join(" ");
  return `${line}\nRun ${commandPath} --help for usage.\n`;
}

/**
 * Every command of `program` (and the program itself) reports a usage error as one line and a
 * hint. Call after the commands are defined.
 */
export function oneLineUsageErrors(program: Command): void {
  for (const command of [program, ...program.commands]) {
    const path = command === program ? program.name() : `${program.name()} ${command.name()}`;
    const output = command.configureOutput();
    command.showHelpAfterError(false).configureOutput({
      ...output,
      outputError: (message, write) => write(usageErrorText(message, path)),
    });
  }
}
