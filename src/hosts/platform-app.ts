import type { Logger } from "../telemetry/logger.js";

/** What every platform's app is built with: where its SDK's logs go and where it listens. */
export interface PlatformAppOptions {
  log: Logger;
  /** Interface for the platform's HTTP listener (default all interfaces). */
  host?: string;
}

/** A platform SDK's app for one bot, as its host drives it. */
export interface PlatformApp<SdkApp> {
  app: SdkApp;
  /** Connects or starts listening. */
  start(): Promise<void>;
  /** Stops receiving events; answers in flight can still post. */
  stop(): Promise<void>;
  /** How it listens (`Socket Mode`, `HTTP events on :3000`), for the startup summary. */
  describe: string;
}
