import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import { type ModelServer, type ModelServerOptions, startModelServer } from "./model-server/model-server.js";

/** What an end-to-end test file shares: its scripted model server and a scratch folder for bots. */
export interface E2eSession {
  readonly server: ModelServer;
  readonly root: string;
}

/**
 * Registers, for the calling test file, a scripted model server on 127.0.0.1 and a scratch folder
 * (both made before its first test and removed after its last), and puts the process environment
 * back as it was after each test (tests set keys and tokens).
 */
export function e2eSession(folderPrefix: string, server: ModelServerOptions): E2eSession {
  let started: ModelServer | undefined;
  let folder: string | undefined;
  const savedEnv = { ...process.env };
  beforeAll(async () => {
    started = await startModelServer(server);
    folder = await mkdtemp(join(tmpdir(), folderPrefix));
  });
  afterAll(async () => {
    await started?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });
  afterEach(() => {
    for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
    Object.assign(process.env, savedEnv);
  });
  return {
    get server() {
      if (!started) throw new Error("the e2e model server starts in beforeAll");
      return started;
    },
    get root() {
      if (!folder) throw new Error("the e2e scratch folder is made in beforeAll");
      return folder;
    },
  };
}
