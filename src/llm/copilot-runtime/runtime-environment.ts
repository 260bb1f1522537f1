// The environment of the spawned Copilot runtime. `RuntimeConnection.forStdio({ env })` replaces
// the inherited environment instead of merging it, which is what we want for isolation (the
// runtime must never read or write the user's real ~/.copilot, and a host's COPILOT_CLI_PATH must
// not swap in another runtime), but it means everything the runtime legitimately needs is
// passed through explicitly here.

import { join } from "node:path";

/** Host variables the runtime needs whatever the auth mode: executables, locale, temp, TLS, proxies. */
const PASS_THROUGH = [
  "PATH",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "TMPDIR",
  "TEMP",
  "TMP",
  "SYSTEMROOT", // Windows processes fail to start networking without it
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "HTTPS_PROXY",
  "https_proxy",
  "HTTP_PROXY",
  "http_proxy",
  "NO_PROXY",
  "no_proxy",
] as const;

/** How a signed-in Copilot user is recognised without the real HOME: token variables only. */
const SIGN_IN_VARIABLES = ["COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN", "GH_HOST"] as const;

export interface RuntimeLocation {
  /** Isolated HOME of the runtime: `<bot dir>/.second-look/copilot-home`. */
  home: string;
  /** COPILOT_HOME (the SDK's `baseDirectory`): session state, settings, session store. */
  baseDirectory: string;
}

export function runtimeLocation(botDir: string): RuntimeLocation {
  const home = join(botDir, ".second-look", "copilot-home");
  return { home, baseDirectory: join(home, ".copilot") };
}

export interface RuntimeEnvironmentInput {
  hostEnv: NodeJS.ProcessEnv;
  home: string;
  /** Set when the bot uses a BYOK provider: the runtime then runs offline, with no GitHub auth. */
  provider?: { type: string; baseUrl: string; model: string };
}

export function runtimeEnvironment(input: RuntimeEnvironmentInput): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of PASS_THROUGH) {
    const value = input.hostEnv[name];
    if (value !== undefined) env[name] = value;
  }
  env.HOME = input.home;
  env.USERPROFILE = input.home;
  // The runtime is pinned by the SDK package; it must never replace itself at run time.
  env.COPILOT_AUTO_UPDATE = "false";
  if (input.provider) {
    // Offline disables GitHub auth, telemetry, web tools, the GitHub MCP server and updates.
    // The standalone CLI (1.0.102) exits at start-up in offline mode unless a provider is also
    // named in its env (the bundled 1.0.85 does not check); sessions still pass their own
    // provider, these only satisfy that start-up check. No API key goes here.
    env.COPILOT_OFFLINE = "true";
    env.COPILOT_PROVIDER_BASE_URL = input.provider.baseUrl;
    env.COPILOT_PROVIDER_TYPE = input.provider.type;
    env.COPILOT_MODEL = input.provider.model;
  } else {
    for (const name of SIGN_IN_VARIABLES) {
      const value = input.hostEnv[name];
      if (value !== undefined) env[name] = value;
    }
  }
  return env;
}
