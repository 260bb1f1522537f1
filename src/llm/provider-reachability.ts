// Whether a BYOK provider's server takes connections at all, asked before a command starts a
// session with it. The Copilot runtime retries an unreachable provider for about half a minute
// before it reports; one TCP connect to the baseUrl's host and port answers the same question
// in milliseconds. Only a connection is opened and closed again: no request, no header, no key.
import { once } from "node:events";
import { connect } from "node:net";
import { DEADLINES, DeadlineError, withDeadline } from "../deadline.js";
import type { ProviderConfig } from "./provider-config.js";

export type Reachability =
  | { reachable: true }
  /** Not asked: the route goes through a proxy, whose own errors the real call reports. */
  | { reachable: "unknown"; why: string }
  | { reachable: false; reason: string };

/** What a failed connect's code means, for the reason a user reads. */
const CONNECT_ERRORS: Record<string, string> = {
  ECONNREFUSED: "nothing listens there",
  ENOTFOUND: "the host name does not resolve",
  EAI_AGAIN: "the host name does not resolve",
  EHOSTUNREACH: "no route to the host",
  ENETUNREACH: "no route to the host",
};

/**
 * One TCP connect to the host and port of `provider.baseUrl`, bounded by
 * DEADLINES.providerConnectMs (a server that is up on a working network accepts far sooner).
 * When a proxy variable is set the provider is reached through it, so the direct connect would
 * not say anything about the real route: then nothing is asked.
 */
export async function checkProviderReachable(
  provider: Pick<ProviderConfig, "baseUrl">,
  env: NodeJS.ProcessEnv,
): Promise<Reachability> {
  const url = new URL(provider.baseUrl);
  // As src/llm/proxy-dispatcher.ts reads them: an https target falls back to HTTP_PROXY.
  const proxies = [
    ...(url.protocol === "https:" ? ["HTTPS_PROXY", "https_proxy"] : []),
    "HTTP_PROXY",
    "http_proxy",
  ];
  const proxy = proxies.find((name) => env[name]);
  if (proxy) return { reachable: "unknown", why: `requests go through the proxy in $${proxy}` };
  // URL keeps IPv6 literals bracketed; net.connect wants the bare address.
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const where = `${url.hostname}:${port}`;
  const timeoutMs = DEADLINES.providerConnectMs;
  try {
    await withDeadline(`connecting to ${where}`, timeoutMs, undefined, async (signal) => {
      const socket = connect({ host, port, signal });
      await once(socket, "connect").finally(() => socket.destroy());
    });
    return { reachable: true };
  } catch (error) {
    if (error instanceof DeadlineError) {
      return { reachable: false, reason: `no connection to ${where} within ${timeoutMs} ms` };
    }
    const code = (error as { code?: unknown }).code;
    const meaning =
      typeof code === "string" && CONNECT_ERRORS[code] ? `${code}: ${CONNECT_ERRORS[code]}` : code;
    const why = typeof meaning === "string" ? meaning : String((error as Error)?.message ?? error);
    return { reachable: false, reason: `cannot connect to ${where} (${why})` };
  }
}

/**
 * How long a successful connect vouches for the provider. Long enough that a busy bot does not
 * open a connection per question, short enough that a server that went down since is noticed
 * within half a minute (its questions then fail after one connect instead of the runtime's
 * retries).
 */
export const PROVIDER_REACHABLE_FOR_MS = 30_000;

export interface ReachabilityGate {
  /** The last successful check while it is fresh, else a new connect (shared by concurrent callers). */
  check(): Promise<Reachability>;
}

/**
 * `checkProviderReachable` for a long-lived process that asks before every question. Only a
 * success is remembered, and only for `reachableForMs`: a failure is asked again by the next
 * question, so the process recovers as soon as the server is back. Questions arriving while a
 * check runs share it rather than open one connection each.
 */
export function providerReachabilityGate(
  provider: Pick<ProviderConfig, "baseUrl">,
  env: NodeJS.ProcessEnv,
  options: { reachableForMs?: number; now?: () => number } = {},
): ReachabilityGate {
  const reachableForMs = options.reachableForMs ?? PROVIDER_REACHABLE_FOR_MS;
  const now = options.now ?? Date.now;
  let reachableAt: number | undefined;
  let inFlight: Promise<Reachability> | undefined;
  return {
    check(): Promise<Reachability> {
      if (reachableAt !== undefined && now() - reachableAt < reachableForMs) {
        return Promise.resolve({ reachable: true });
      }
      reachableAt = undefined;
      inFlight ??= checkProviderReachable(provider, env)
        .then(
          (result): Reachability => {
            if (result.reachable === true) reachableAt = now();
            return result;
          },
          // Only an unparseable baseUrl throws here: say so, do not guess.
          (error: unknown): Reachability => ({
            reachable: false,
            reason: `cannot check ${provider.baseUrl}: ${(error as Error)?.message ?? String(error)}`,
          }),
        )
        .finally(() => {
          inFlight = undefined;
        });
      return inFlight;
    },
  };
}
