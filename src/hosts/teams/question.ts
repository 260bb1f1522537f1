// What a Teams user asked, from an activity posted to the bot's endpoint. The SDK validates the
// Bot Framework token, not the activity's shape, so every field used here is checked and bounded.

export interface TeamsQuestion {
  /** One conversation per Teams conversation: a personal or group chat, or a channel thread. */
  conversationId: string;
  text: string;
}

const MAX_CONVERSATION_ID = 1_024;
/**
 * Teams ids (`19:…@thread.tacv2;messageid=…`, `a:1…`) use these characters only. The SDK puts the
 * id into the Bot Connector URL unencoded, so `/`, `?`, `#` or spaces must never get through.
 */
const CONVERSATION_ID = /^[\w:@.;=\-+,%!~*'()]+$/;
/** Teams caps a message at about 28 KB; anything longer did not come from Teams. */
const MAX_ACTIVITY_TEXT = 40_000;

const ENTITIES: Record<string, string> = {
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
  "&nbsp;": " ",
};

/** Teams text → plain words: `<at>` mentions (the bot's own) go, HTML formatting is dropped. */
export function plainTeamsText(text: string): string {
  return text
    .replace(/<at[^>]*>[\s\S]*?<\/at>/gi, " ")
    .replace(/<br\s*\/?>|<\/p>/gi, "\n")
    .replace(/<[^>]{0,500}>/g, "")
    .replace(/&(?:lt|gt|quot|#39|nbsp);/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/&amp;/g, "&")
    .replace(/[ \t]{2,}/g, " ")
    .trim();
}

/** A question from a message activity, or undefined for one that is malformed or from a bot. */
export function teamsQuestion(activity: unknown): TeamsQuestion | undefined {
  if (typeof activity !== "object" || activity === null) return undefined;
  const record = activity as Record<string, unknown>;
  if (record.type !== "message" || typeof record.text !== "string") return undefined;
  if (record.text.length > MAX_ACTIVITY_TEXT) return undefined;
  const from = record.from as { role?: unknown } | undefined;
  if (from?.role === "bot") return undefined;
  const conversation = record.conversation as { id?: unknown; tenantId?: unknown } | undefined;
  const id = conversation?.id;
  if (typeof id !== "string" || id.length > MAX_CONVERSATION_ID || !CONVERSATION_ID.test(id))
    return undefined;
  const tenant =
    typeof conversation?.tenantId === "string" && /^[\w-]{1,64}$/.test(conversation.tenantId)
      ? conversation.tenantId
      : "-";
  return { conversationId: `teams:${tenant}:${id}`, text: plainTeamsText(record.text) };
}
