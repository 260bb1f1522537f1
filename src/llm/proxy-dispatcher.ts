// Outbound proxies for the HTTP providers. Node's fetch stack (undici) ignores HTTP(S)_PROXY
// unless told, so a grader behind a corporate proxy would fail where the Copilot runtime (which
// reads them) succeeds. The variables are read from the env the client is built with, NO_PROXY
// included, and one agent is kept per distinct setting. undici is loaded on the first call.
import type { Dispatcher } from "undici";

const agents = new Map<string, Dispatcher>();

/** A proxying dispatcher when the env names a proxy, else undefined (the global dispatcher). */
export async function proxyDispatcher(env: NodeJS.ProcessEnv): Promise<Dispatcher | undefined> {
  const httpProxy = env.HTTP_PROXY ?? env.http_proxy;
  const httpsProxy = env.HTTPS_PROXY ?? env.https_proxy;
  if (!httpProxy && !httpsProxy) return undefined;
  const noProxy = env.NO_PROXY ?? env.no_proxy ?? "";
  const key = JSON.stringify([httpProxy, httpsProxy, noProxy]);
  let agent = agents.get(key);
  if (!agent) {
    const { EnvHttpProxyAgent } = await import("undici");
    agent =
      agents.get(key) ??
      new EnvHttpProxyAgent({
        // HTTP_PROXY for http targets; HTTPS_PROXY for https ones, falling back to HTTP_PROXY.
        ...(httpProxy ? { httpProxy } : {}),
        ...(httpsProxy || httpProxy ? { httpsProxy: httpsProxy || httpProxy } : {}),
        noProxy,
      });
    agents.set(key, agent);
  }
  return agent;
}
