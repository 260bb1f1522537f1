/**
 * The per-bot suffix of environment variable names: upper case, every run of characters other
 * than A-Z and 0-9 becomes one `_` (`handbook` → `HANDBOOK`, `ops-faq.v2` → `OPS_FAQ_V2`).
 * Chat hosts read per-bot secrets as `<VAR>_<NAME>`, e.g. `SLACK_BOT_TOKEN_HANDBOOK`.
 */
export function botEnvSuffix(botName: string): string {
  return botName.toUpperCase().replace(/[^A-Z0-9]+/g, "_");
}

/** `<prefix>_<NAME>`: the name of a per-bot environment variable. */
export function botEnvVar(prefix: string, botName: string): string {
  return `${prefix}_${botEnvSuffix(botName)}`;
}
