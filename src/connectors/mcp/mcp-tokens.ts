// Who may use `second-look mcp --http`: bearer tokens, each with the bots and collections it may
// search. Tokens come from SECOND_LOOK_MCP_TOKENS (comma-separated, each allowed everything) and
// from a tokens file, one token per line (docs/design.md §8, "MCP over HTTP"):
//
//   # comment
//   <token> <scope>[,<scope>…]      scope: *  |  <bot>  |  <bot>/<collection>
//
// A presented token is compared with every known one in constant time (SHA-256 digests of equal
// length through crypto.timingSafeEqual, no early exit), so the time taken tells nothing about
// how much of a token was right. Tokens are never logged: a grant is named by where it was set.
import { createHash, timingSafeEqual } from "node:crypto";
import { readFile } from "node:fs/promises";
import * as z from "zod";
import { errorMessage } from "../../errors.js";
import { ConnectorsError } from "../connectors-error.js";

export const TOKENS_ENV = "SECOND_LOOK_MCP_TOKENS";
/** Shorter tokens are guessable; a generated one (`openssl rand -hex 32`) has 64 characters. */
export const MIN_TOKEN_CHARS = 16;

export class McpTokensError extends ConnectorsError {
  override readonly name = "McpTokensError";
  constructor(message: string) {
    super("mcp-tokens", message);
  }
}

/** Everything (`*`), a whole bot, or one collection of a bot. */
export type TokenScope =
  | { kind: "all" }
  | { kind: "bot"; bot: string }
  | { kind: "collection"; bot: string; collection: string };

export interface TokenGrant {
  /** Where the token was set (`tokens.txt:3`, `SECOND_LOOK_MCP_TOKENS #2`): for logs and limits. */
  label: string;
  scopes: TokenScope[];
}

const NAME = /^[^\s,/]+$/;

const scopeSchema = z
  .string()
  .refine(
    (text) =>
      text === "*" || (text.split("/").every((part) => NAME.test(part)) && text.split("/").length <= 2),
    {
      message: 'a scope is "*", a bot name, or bot/collection',
    },
  )
  .transform((text): TokenScope => {
    if (text === "*") return { kind: "all" };
    const [bot, collection] = text.split("/") as [string, string | undefined];
    return collection === undefined ? { kind: "bot", bot } : { kind: "collection", bot, collection };
  });

const tokenSchema = z
  .string()
  .min(MIN_TOKEN_CHARS, `a token must have at least ${MIN_TOKEN_CHARS} characters`)
  .max(4_096, "a token may have at most 4096 characters")
  .regex(/^[\x21-\x7e]+$/, "a token is printable ASCII without spaces");

/** One line of a tokens file, as zod validates it. */
export const tokenLineSchema = z.object({
  token: tokenSchema,
  scopes: z.array(scopeSchema).min(1, "name what the token may use: *, a bot, or bot/collection"),
});

interface KnownToken extends TokenGrant {
  digest: Buffer;
}

export interface TokenStore {
  /** The grant of the bearer token in an Authorization header, or undefined. */
  authenticate(authorization: string | undefined): TokenGrant | undefined;
  /** How many tokens are known. */
  readonly size: number;
  /** Every grant (for start-up checks such as scopes naming bots this server lacks). */
  readonly grants: readonly TokenGrant[];
}

const digest = (token: string) => createHash("sha256").update(token, "utf8").digest();

/** Reads a tokens file's text; every problem names the file and line. Throws McpTokensError. */
export function parseTokensFile(text: string, file: string): Array<TokenGrant & { token: string }> {
  const entries: Array<TokenGrant & { token: string }> = [];
  const seen = new Map<string, number>();
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const where = `${file}:${i + 1}`;
    const [token = "", ...rest] = line.split(/\s+/);
    const parsed = tokenLineSchema.safeParse({
      token,
      scopes: rest.length === 0 ? [] : rest.join("").split(",").filter(Boolean),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path[0] === "scopes" ? "scope" : "token";
      throw new McpTokensError(`${where}: ${field}: ${issue.message}`);
    }
    const earlier = seen.get(parsed.data.token);
    if (earlier !== undefined) throw new McpTokensError(`${where}: the same token as line ${earlier}`);
    seen.set(parsed.data.token, i + 1);
    entries.push({ token: parsed.data.token, label: where, scopes: parsed.data.scopes });
  }
  return entries;
}

/** Tokens from the environment variable (each allowed everything) and the tokens file. */
export async function loadTokens(options: { env: NodeJS.ProcessEnv; file?: string }): Promise<TokenStore> {
  const entries: Array<TokenGrant & { token: string }> = [];
  const fromEnv = (options.env[TOKENS_ENV] ?? "").split(",").map((t) => t.trim());
  for (const [i, token] of fromEnv.entries()) {
    if (token === "") continue;
    const checked = tokenSchema.safeParse(token);
    if (!checked.success) {
      throw new McpTokensError(`${TOKENS_ENV} token #${i + 1}: ${checked.error.issues[0]!.message}`);
    }
    entries.push({ token, label: `${TOKENS_ENV} #${i + 1}`, scopes: [{ kind: "all" }] });
  }
  if (options.file !== undefined) {
    let text: string;
    try {
      text = await readFile(options.file, "utf8");
    } catch (error) {
      throw new McpTokensError(`${options.file}: cannot read the tokens file: ${errorMessage(error)}`);
    }
    entries.push(...parseTokensFile(text, options.file));
  }
  return tokenStore(entries);
}

export function tokenStore(entries: ReadonlyArray<TokenGrant & { token: string }>): TokenStore {
  const known: KnownToken[] = entries.map(({ token, ...grant }) => ({ ...grant, digest: digest(token) }));
  return {
    size: known.length,
    grants: known.map(({ label, scopes }) => ({ label, scopes })),
    authenticate(authorization) {
      const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? "");
      if (!match) return undefined;
      const presented = digest(match[1]!);
      let found: KnownToken | undefined;
      // Every known token is compared, whichever matches: the time does not depend on which.
      for (const entry of known) {
        if (timingSafeEqual(presented, entry.digest) && found === undefined) found = entry;
      }
      return found ? { label: found.label, scopes: found.scopes } : undefined;
    },
  };
}

/**
 * What a grant may use of `bot`: "all" of its collections, the named ones (in the bot's order),
 * or "none" (the token is not for this bot).
 */
export function grantedCollections(
  grant: TokenGrant,
  bot: string,
  botCollections: readonly string[],
): "all" | "none" | string[] {
  if (grant.scopes.some((s) => s.kind === "all" || (s.kind === "bot" && s.bot === bot))) return "all";
  const named = grant.scopes.flatMap((s) => (s.kind === "collection" && s.bot === bot ? [s.collection] : []));
  const allowed = botCollections.filter((name) => named.includes(name));
  return allowed.length > 0 ? allowed : "none";
}
