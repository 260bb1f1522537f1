import pg from "pg";
import { DEADLINES } from "../../deadline.js";
import { KnowledgeError } from "../../knowledge/knowledge-error.js";
import { scrubSecrets, urlSecrets } from "../../secret-text.js";

/** Connections one process opens at most: a search needs one, an index run two. */
export const POOL_SIZE = 4;
/** Longest any one statement may run; a slow database fails the call instead of hanging it. */
export const STATEMENT_TIMEOUT_MS = DEADLINES.postgresStatementMs;
/** Longest wait for a connection (a new one or a free one from the pool). */
export const CONNECT_TIMEOUT_MS = DEADLINES.postgresConnectMs;

export interface PostgresTarget {
  /** The bot whose knowledge this is (named in errors and scoping every query). */
  bot: string;
  /** Name of the environment variable holding the connection string. */
  urlEnv: string;
  /** Schema holding the tables (created when missing). */
  schema: string;
}

/**
 * The database could not be used: the message is the one line a command prints and the text a
 * model sees in its tool error, naming the bot, the host and what to check — never the
 * connection string, which may carry a password.
 */
export class PostgresUnavailableError extends KnowledgeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("postgres-unavailable", message, options);
    this.name = "PostgresUnavailableError";
  }
}

/** host:port/database of a connection string, without user or password; undefined if unparsable. */
export function describeServer(connectionString: string): string | undefined {
  try {
    const url = new URL(connectionString);
    if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") return undefined;
    const host = url.hostname || url.searchParams.get("host") || "localhost";
    return `${host}:${url.port || "5432"}${url.pathname.length > 1 ? url.pathname : ""}`;
  } catch {
    return undefined;
  }
}

/** The connection string the target's variable holds; a clear error when it is unset. */
export function connectionStringFor(target: PostgresTarget, env: NodeJS.ProcessEnv = process.env): string {
  const value = env[target.urlEnv]?.trim();
  if (!value) {
    throw new PostgresUnavailableError(
      `bot ${target.bot}: knowledge.postgres.urlEnv names ${target.urlEnv}, which is not set; ` +
        `set it to a connection string such as postgresql://user@host:5432/db`,
    );
  }
  if (!describeServer(value)) {
    throw new PostgresUnavailableError(
      `bot ${target.bot}: ${target.urlEnv} is not a postgresql:// connection string`,
    );
  }
  return value;
}

/** A bounded pool with per-statement timeouts; every error it raises names what to check. */
export function openPool(target: PostgresTarget, connectionString: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: POOL_SIZE,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    // Idle connections never keep a finished command alive; close() still ends them at once.
    allowExitOnIdle: true,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    // A client-side bound too, for a server that stops answering altogether.
    query_timeout: STATEMENT_TIMEOUT_MS + 2_000,
    idle_in_transaction_session_timeout: STATEMENT_TIMEOUT_MS * 3,
    application_name: `second-look ${target.bot}`.slice(0, 63),
  });
  // An idle connection the server drops must not crash the process: the next query reconnects.
  pool.on("error", () => {});
  return pool;
}

/** What a message about this database must never quote: the connection string and its credentials. */
export function connectionSecrets(connectionString: string): string[] {
  return [connectionString, ...urlSecrets(connectionString)];
}

/**
 * Turns a driver error into a PostgresUnavailableError naming the bot, the server and what to
 * check. Errors that are not about reaching the database are returned with the same identity.
 * `secrets` (connectionSecrets) are scrubbed from every message before its first line is taken.
 */
export function explainPostgresError(
  target: PostgresTarget,
  server: string,
  error: unknown,
  secrets: readonly string[] = [],
): Error {
  if (error instanceof PostgresUnavailableError) return error;
  const e = error as { code?: string; message?: string };
  const full = scrubSecrets(e?.message ?? String(error), secrets);
  if (error instanceof Error && full !== error.message) error.message = full;
  const message = full.split("\n")[0]!;
  const where = `bot ${target.bot}: PostgreSQL at ${server}`;
  const hint = (() => {
    switch (e?.code) {
      case "ECONNREFUSED":
      case "ENOTFOUND":
      case "EAI_AGAIN":
      case "EHOSTUNREACH":
      case "ECONNRESET":
        return `is unreachable (${e.code}); check that the server runs and that ${target.urlEnv} names the right host and port`;
      case "57014": // query_canceled: statement_timeout
        return `did not answer within ${STATEMENT_TIMEOUT_MS} ms (statement timeout); check the server's load`;
      case "28P01":
      case "28000":
        return `refused the login (${message}); check the user and password in ${target.urlEnv}`;
      case "3D000":
        return `has no such database (${message}); create it or fix ${target.urlEnv}`;
      case "57P01":
      case "57P03":
        return `is shutting down or starting (${message}); retry when it is up`;
      default:
        if (/timeout/i.test(message)) {
          return `did not answer in time (${message}); check that the server runs and is not overloaded`;
        }
        // A write to a connection the server already closed fails with EPIPE (the run's
        // connection terminated while it was sending, e.g. mid-COPY).
        if (e?.code === "EPIPE" || /terminated|Connection terminated|ECONN|EPIPE/i.test(message)) {
          return `closed the connection (${message}); check the server's log`;
        }
        return undefined;
    }
  })();
  if (hint === undefined) return error instanceof Error ? error : new Error(message);
  return new PostgresUnavailableError(`${where} ${hint}`, { cause: error });
}
