// What a Slack user asked, from an event that Slack (or anyone who got past the receiver's
// checks) sent: every field is validated and bounded before it names a conversation or reaches
// the model, and Slack's markup is turned back into the words the user saw.

/** A validated question event: where it came from and where the answer goes. */
export interface SlackQuestion {
  team: string;
  channel: string;
  /** The message's own timestamp (its identity in the channel). */
  ts: string;
  /** The thread the answer goes to; undefined for a top-level direct message. */
  replyThreadTs: string | undefined;
  /** One conversation per thread (per DM for top-level direct messages). */
  conversationId: string;
  text: string;
}

const ID = /^[A-Z0-9]{2,40}$/;
const TS = /^\d{1,12}\.\d{1,9}$/;
/** Slack's own cap is 40,000; anything longer did not come from Slack. */
const MAX_EVENT_TEXT = 40_000;

function field(record: Record<string, unknown>, key: string, pattern: RegExp): string | undefined {
  const value = record[key];
  return typeof value === "string" && pattern.test(value) ? value : undefined;
}

/** Slack markup → plain words: the bot's own mention goes, other mentions and links read as text. */
export function plainSlackText(text: string, botUserId: string | undefined): string {
  return text
    .replace(/<@([A-Z0-9]+)(?:\|[^>]*)?>/g, (_m, id: string) => (id === botUserId ? "" : `@${id}`))
    .replace(/<#[A-Z0-9]+\|([^>]*)>/g, "#$1")
    .replace(/<!(here|channel|everyone)(?:\|[^>]*)?>/g, "@$1")
    .replace(/<!subteam\^[A-Z0-9]+(?:\|([^>]*))?>/g, (_m, label?: string) => label ?? "@group")
    .replace(/<((?:https?|mailto):[^|>]+)\|([^>]*)>/g, "$2 ($1)")
    .replace(/<((?:https?|mailto):[^>]+)>/g, "$1")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/[ \t]{2,}/g, " ")
    .trim();
}

/**
 * A question from an `app_mention` or direct-message event, or undefined for an event that is
 * malformed, from a bot, or an edit/deletion/join (subtypes): those are never answered, which
 * also keeps two bots from answering each other forever.
 */
export function slackQuestion(
  event: unknown,
  options: { teamId: string | undefined; botUserId: string | undefined; direct: boolean },
): SlackQuestion | undefined {
  if (typeof event !== "object" || event === null) return undefined;
  const record = event as Record<string, unknown>;
  if (record.subtype !== undefined || record.bot_id !== undefined) return undefined;
  if (typeof record.user !== "string" || record.user === options.botUserId) return undefined;
  const channel = field(record, "channel", ID);
  const ts = field(record, "ts", TS);
  if (!channel || !ts) return undefined;
  if (typeof record.text !== "string" || record.text.length > MAX_EVENT_TEXT) return undefined;
  const threadTs = field(record, "thread_ts", TS);
  const team =
    options.teamId && ID.test(options.teamId) ? options.teamId : (field(record, "team", ID) ?? "-");
  // A direct message at the top level continues the DM; anywhere else the thread is the conversation.
  const replyThreadTs = options.direct && !threadTs ? undefined : (threadTs ?? ts);
  const conversationId = replyThreadTs
    ? `slack:${team}:${channel}:${replyThreadTs}`
    : `slack:${team}:${channel}`;
  return {
    team,
    channel,
    ts,
    replyThreadTs,
    conversationId,
    text: plainSlackText(record.text, options.botUserId),
  };
}
