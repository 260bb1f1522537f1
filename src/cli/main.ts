// The `second-look` command. Subcommands live one per file and are imported lazily so that a
// quick command (`grade`) does not pay for loading the engine or the Copilot SDK.
export async function main(argv: string[]): Promise<void> {
  process.stderr.write(`second-look: not yet wired (${argv.join(" ")})\n`);
  process.exitCode = 2;
}
