// The installed package's version (the CLI's --version, service.version on exported spans):
// package.json sits two levels up from src/telemetry and dist/telemetry alike.
import { readFileSync } from "node:fs";

let cached: string | undefined;

export function packageVersion(): string {
  if (cached !== undefined) return cached;
  try {
    const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      version?: unknown;
    };
    cached = typeof manifest.version === "string" ? manifest.version : "unknown";
  } catch {
    cached = "unknown";
  }
  return cached;
}
