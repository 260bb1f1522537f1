// Which chat platforms a bot can join, from per-bot environment variables (`<VAR>_<NAME>`, see
// bots/bot-env.ts), and, for each platform it cannot join, exactly which variables are missing.
// Secrets are read here and handed to the SDKs; they are never logged or printed.
import { botEnvVar } from "../bots/bot-env.js";

export type SlackCredentials =
  | { mode: "socket"; botToken: string; appToken: string }
  | { mode: "http"; botToken: string; signingSecret: string; port: number };

export interface TeamsCredentials {
  clientId: string;
  clientSecret: string;
  /** Absent for a (legacy) multi-tenant app registration. */
  tenantId?: string;
  port: number;
}

export interface PlatformPlan<T> {
  credentials?: T;
  /** Why the platform is off: the variables to set (empty when credentials are present). */
  missing: string;
  /** A variable that is set but unusable (e.g. a Slack token of the wrong kind). */
  invalid?: string;
}

export interface HostPlan {
  bot: string;
  slack: PlatformPlan<SlackCredentials>;
  teams: PlatformPlan<TeamsCredentials>;
}

export const DEFAULT_SLACK_PORT = 3000;
export const DEFAULT_TEAMS_PORT = 3978;

/** The variable names for a bot, for messages and the README. */
export function hostVariables(bot: string) {
  return {
    slackBotToken: botEnvVar("SLACK_BOT_TOKEN", bot),
    slackAppToken: botEnvVar("SLACK_APP_TOKEN", bot),
    slackSigningSecret: botEnvVar("SLACK_SIGNING_SECRET", bot),
    slackPort: botEnvVar("SLACK_PORT", bot),
    teamsClientId: botEnvVar("TEAMS_CLIENT_ID", bot),
    teamsClientSecret: botEnvVar("TEAMS_CLIENT_SECRET", bot),
    teamsTenantId: botEnvVar("TEAMS_TENANT_ID", bot),
    teamsPort: botEnvVar("TEAMS_PORT", bot),
  };
}

function read(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number | string {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  return Number.isInteger(value) && value > 0 && value < 65_536
    ? value
    : `${name} must be a port number (1-65535)`;
}

function planSlack(bot: string, env: NodeJS.ProcessEnv): PlatformPlan<SlackCredentials> {
  const v = hostVariables(bot);
  const botToken = read(env, v.slackBotToken);
  const appToken = read(env, v.slackAppToken);
  const signingSecret = read(env, v.slackSigningSecret);
  const transport = `${v.slackAppToken} (Socket Mode) or ${v.slackSigningSecret} (HTTP events)`;
  if (!botToken) {
    return { missing: `${v.slackBotToken} and ${transport}` };
  }
  if (!botToken.startsWith("xoxb-")) {
    return { missing: "", invalid: `${v.slackBotToken} must be a bot token (xoxb-…)` };
  }
  if (appToken) {
    if (!appToken.startsWith("xapp-")) {
      return { missing: "", invalid: `${v.slackAppToken} must be an app-level token (xapp-…)` };
    }
    return { credentials: { mode: "socket", botToken, appToken }, missing: "" };
  }
  if (signingSecret) {
    const listen = port(env, v.slackPort, DEFAULT_SLACK_PORT);
    if (typeof listen === "string") return { missing: "", invalid: listen };
    return { credentials: { mode: "http", botToken, signingSecret, port: listen }, missing: "" };
  }
  return { missing: transport };
}

function planTeams(bot: string, env: NodeJS.ProcessEnv): PlatformPlan<TeamsCredentials> {
  const v = hostVariables(bot);
  const clientId = read(env, v.teamsClientId);
  const clientSecret = read(env, v.teamsClientSecret);
  const tenantId = read(env, v.teamsTenantId);
  const absent = [
    clientId ? undefined : v.teamsClientId,
    clientSecret ? undefined : v.teamsClientSecret,
  ].filter((name): name is string => name !== undefined);
  if (!clientId || !clientSecret) {
    return { missing: `${absent.join(" and ")} (with ${v.teamsTenantId} for a single-tenant app)` };
  }
  const listen = port(env, v.teamsPort, DEFAULT_TEAMS_PORT);
  if (typeof listen === "string") return { missing: "", invalid: listen };
  return {
    credentials: { clientId, clientSecret, ...(tenantId ? { tenantId } : {}), port: listen },
    missing: "",
  };
}

export function planHosts(bot: string, env: NodeJS.ProcessEnv): HostPlan {
  return { bot, slack: planSlack(bot, env), teams: planTeams(bot, env) };
}

/** Whether the plan starts anything. */
export function hasPlatform(plan: HostPlan): boolean {
  return plan.slack.credentials !== undefined || plan.teams.credentials !== undefined;
}
