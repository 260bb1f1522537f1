// A throwaway PostgreSQL 15 for tests and benchmarks: initdb into a temporary folder, listen on
// 127.0.0.1 on a free port, stop and delete afterwards. initdb refuses to run as root (as CI
// does), so as root the server runs as Debian's unprivileged `postgres` account.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, chown, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "../free-port.js";

const run = promisify(execFile);

/** Debian's postgresql-15 (installed by .ci/run); PG_BIN overrides. */
export const POSTGRES_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";

export interface PostgresServer {
  /** postgresql:// connection string of the test database (trust auth, no password). */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Undefined when the binaries are here; otherwise why not. Under CI=true their absence is an
 * error (.ci/run installs them), so a broken install never passes as skipped tests.
 */
export function postgresUnavailableReason(): string | undefined {
  if (existsSync(join(POSTGRES_BIN, "initdb")) && existsSync(join(POSTGRES_BIN, "pg_ctl"))) return undefined;
  const reason = `PostgreSQL 15 binaries not found in ${POSTGRES_BIN} (apt-get install postgresql-15, or set PG_BIN)`;
  if (process.env.CI === "true") throw new Error(`${reason}: .ci/run should have installed them`);
  return reason;
}

async function postgresAccount(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const { stdout } = await run("id", ["-u", "postgres"]).catch(() => {
    throw new Error(
      "running as root but there is no `postgres` account to run the server as (apt-get install postgresql-15)",
    );
  });
  const { stdout: gid } = await run("id", ["-g", "postgres"]);
  return { uid: Number(stdout.trim()), gid: Number(gid.trim()) };
}

/**
 * Starts a throwaway server. `settings` are extra server settings (name → value), e.g. a
 * benchmark's memory sizes; the defaults suit tests.
 */
export async function startPostgres(settings: Record<string, string> = {}): Promise<PostgresServer> {
  const account = await postgresAccount();
  const dir = await mkdtemp(join(tmpdir(), "second-look-pg-"));
  const data = join(dir, "data");
  if (account) {
    await chown(dir, account.uid, account.gid);
    await chmod(dir, 0o700);
  }
  // As root, every server command runs as `postgres`.
  const asServer = (bin: string, args: string[]) =>
    account
      ? run("runuser", ["-u", "postgres", "--", join(POSTGRES_BIN, bin), ...args], { timeout: 60_000 })
      : run(join(POSTGRES_BIN, bin), args, { timeout: 60_000 });
  try {
    await asServer("initdb", [
      "-D",
      data,
      "-A",
      "trust",
      "-U",
      "postgres",
      "--no-sync",
      "-E",
      "UTF8",
      "--locale=C",
    ]);
    const port = await freePort();
    const options = [
      `-p ${port}`,
      "-c listen_addresses=127.0.0.1",
      `-c unix_socket_directories=${dir}`,
      "-c fsync=off",
      "-c full_page_writes=off",
      "-c synchronous_commit=off",
      "-c max_connections=60",
      ...Object.entries(settings).map(([name, value]) => {
        if (!/^[a-z_]+$/.test(name) || !/^[A-Za-z0-9_.]+$/.test(value))
          throw new Error(`unusable server setting ${name}=${value}`);
        return `-c ${name}=${value}`;
      }),
    ].join(" ");
    await asServer("pg_ctl", [
      "-D",
      data,
      "-w",
      "-t",
      "60",
      "-l",
      join(dir, "server.log"),
      "-o",
      options,
      "start",
    ]);
    let stopped = false;
    return {
      url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
      port,
      stop: async () => {
        if (stopped) return;
        stopped = true;
        await asServer("pg_ctl", ["-D", data, "-w", "-m", "immediate", "stop"]).catch(() => {});
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
