import { describe, expect, it } from "vitest";
import { checkQuestion, SENTENCES } from "../../src/hosts/hosted-answer.js";
import { plainSlackText, slackQuestion } from "../../src/hosts/slack/question.js";
import { plainTeamsText, teamsQuestion } from "../../src/hosts/teams/question.js";

describe("Slack questions", () => {
  it("reads Slack markup back as the words the user saw", () => {
    expect(
      plainSlackText(
        "<@UBOT> ask <@U2> in <#C1|general> about <https://a.example|this> &amp; <!here>",
        "UBOT",
      ),
    ).toBe("ask @U2 in #general about this (https://a.example) & @here");
  });

  it("threads channel messages and keeps top-level DMs as one conversation", () => {
    const base = { user: "U1", text: "hi", ts: "1.000001", channel: "C1" };
    expect(slackQuestion(base, { teamId: "T1", botUserId: "UBOT", direct: false })?.conversationId).toBe(
      "slack:T1:C1:1.000001",
    );
    const dm = { ...base, channel: "D1" };
    expect(slackQuestion(dm, { teamId: "T1", botUserId: "UBOT", direct: true })).toMatchObject({
      conversationId: "slack:T1:D1",
      replyThreadTs: undefined,
    });
    expect(
      slackQuestion({ ...dm, thread_ts: "0.5" }, { teamId: "T1", botUserId: "UBOT", direct: true })
        ?.conversationId,
    ).toBe("slack:T1:D1:0.5");
  });

  it("rejects events from the bot itself, with bad ids, or oversized text", () => {
    const options = { teamId: "T1", botUserId: "UBOT", direct: false };
    expect(slackQuestion({ user: "UBOT", text: "x", ts: "1.1", channel: "C1" }, options)).toBeUndefined();
    expect(slackQuestion({ user: "U1", text: "x", ts: "1.1", channel: "c1/../" }, options)).toBeUndefined();
    expect(
      slackQuestion({ user: "U1", text: "x".repeat(40_001), ts: "1.1", channel: "C1" }, options),
    ).toBeUndefined();
    expect(slackQuestion("not an event", options)).toBeUndefined();
  });
});

describe("Teams questions", () => {
  it("drops mentions and HTML formatting", () => {
    expect(plainTeamsText("<at>Handbook</at> <p>What is <b>leave</b> &amp; pay?</p>")).toBe(
      "What is leave & pay?",
    );
  });

  it("refuses conversation ids that would change the Bot Connector URL", () => {
    const activity = (id: string) => ({ type: "message", text: "hi", conversation: { id, tenantId: "t" } });
    expect(teamsQuestion(activity("19:a@thread.tacv2;messageid=1"))?.conversationId).toBe(
      "teams:t:19:a@thread.tacv2;messageid=1",
    );
    for (const bad of ["a/b", "a?b", "a#b", "a b", ""]) expect(teamsQuestion(activity(bad))).toBeUndefined();
  });
});

describe("checkQuestion", () => {
  it("refuses empty and over-long questions with a sentence, and strips control characters", () => {
    expect(checkQuestion("  ")).toEqual({ sentence: SENTENCES.empty });
    expect(checkQuestion(42)).toEqual({ sentence: SENTENCES.empty });
    expect(checkQuestion("y".repeat(4_001))).toEqual({ sentence: SENTENCES.tooLong });
    expect(checkQuestion("what\u0000 is\u001b leave?\n")).toEqual({ question: "what is leave?" });
  });
});
