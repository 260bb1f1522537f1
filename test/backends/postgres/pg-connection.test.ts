// Driver errors as one explained line: a connection the server closed while the run was writing
// to it (EPIPE, seen when pg_terminate_backend lands mid-COPY) is said to be closed, not
// reported as a bare "write EPIPE" (issue 24's PostgreSQL kill trials).
import { describe, expect, it } from "vitest";
import {
  explainPostgresError,
  PostgresUnavailableError,
} from "../../../src/backends/postgres/pg-connection.js";

const target = { bot: "kb", urlEnv: "DB_URL", schema: "second_look" };

describe("explainPostgresError", () => {
  it("explains a write to a closed connection (EPIPE) as the server closing it", () => {
    const error = Object.assign(new Error("write EPIPE"), { code: "EPIPE", syscall: "write" });
    const explained = explainPostgresError(target, "127.0.0.1:5432/db", error);
    expect(explained).toBeInstanceOf(PostgresUnavailableError);
    expect(explained.message).toBe(
      "bot kb: PostgreSQL at 127.0.0.1:5432/db closed the connection (write EPIPE); check the server's log",
    );
  });

  it("returns an error that is not about the connection as it is", () => {
    const error = Object.assign(new Error("duplicate key value"), { code: "23505" });
    expect(explainPostgresError(target, "127.0.0.1:5432/db", error)).toBe(error);
  });
});
