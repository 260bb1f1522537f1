// The agentic loop's action grammar (docs/reference/vectorless-strategies.md §5.3, §11): outline | expand | read | done.
import { clamp01, numberField, readJsonObject, stringField } from "./model-json.js";

export type AgentAction =
  | { action: "outline"; level: number }
  | { action: "expand" | "read"; sectionId: string }
  | { action: "done"; picks: { id: string; confidence?: number }[]; legacy: boolean; reasoning: string }
  | { action: string; other: true };

export type AgentActionParse = { ok: true; action: AgentAction } | { ok: false; error: string };

export function parseAgentAction(raw: string): AgentActionParse {
  const read = readJsonObject(raw);
  if (!read.ok) return { ok: false, error: read.error };
  const value = read.value;
  const name = stringField(value.action)?.toLowerCase();
  if (!name) return { ok: false, error: "missing action" };
  switch (name) {
    case "outline": {
      const level = numberField(value.level);
      return {
        ok: true,
        action: { action: "outline", level: level !== undefined && level > 0 ? Math.floor(level) : 1 },
      };
    }
    case "expand":
    case "read":
      return { ok: true, action: { action: name, sectionId: stringField(value.section_id) ?? "" } };
    case "done": {
      const reasoning = stringField(value.reasoning) ?? "";
      const picks = Array.isArray(value.picks) ? value.picks : [];
      if (picks.length > 0) {
        const out: { id: string; confidence?: number }[] = [];
        for (const pick of picks) {
          const id =
            typeof pick === "string" ? stringField(pick) : stringField((pick as { id?: unknown })?.id);
          if (!id) continue;
          const c =
            typeof pick === "object"
              ? numberField((pick as { confidence?: unknown })?.confidence)
              : undefined;
          out.push(c === undefined ? { id } : { id, confidence: clamp01(c) });
        }
        return { ok: true, action: { action: "done", picks: out, legacy: false, reasoning } };
      }
      const legacy = Array.isArray(value.picked_ids) ? value.picked_ids : [];
      const ids = legacy.map((v) => stringField(v)).filter((v): v is string => v !== undefined);
      return {
        ok: true,
        action: { action: "done", picks: ids.map((id) => ({ id })), legacy: true, reasoning },
      };
    }
    default:
      return { ok: true, action: { action: name, other: true } };
  }
}
