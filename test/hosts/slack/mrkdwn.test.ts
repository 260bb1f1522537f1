import { describe, expect, it } from "vitest";
import { slackLink, slackSources, toSlackMrkdwn } from "../../../src/hosts/slack/mrkdwn.js";

describe("toSlackMrkdwn", () => {
  it("converts emphasis, headings, lists and links", () => {
    const markdown =
      "# Leave\n\n**Parents** get *16 weeks*.\n- see [the policy](https://wiki.example.com/a?b=1&c=2)\n~~old~~";
    expect(toSlackMrkdwn(markdown)).toBe(
      "*Leave*\n\n*Parents* get _16 weeks_.\n• see <https://wiki.example.com/a?b=1&amp;c=2|the policy>\n~old~",
    );
  });

  it("escapes Slack's control characters so text cannot mention, ping or hide a link", () => {
    expect(toSlackMrkdwn("<!here> <@U123> <https://evil.example|click> a & b")).toBe(
      "&lt;!here&gt; &lt;@U123&gt; &lt;https://evil.example|click&gt; a &amp; b",
    );
  });

  it("keeps links to non-http targets as text", () => {
    expect(toSlackMrkdwn("[run me](javascript:alert(1))")).toBe("[run me](javascript:alert(1))");
  });

  it("leaves code alone apart from escaping", () => {
    expect(toSlackMrkdwn("Use `a **b** <c>` and\n```ts\nconst x = **y**;\n```")).toBe(
      "Use `a **b** &lt;c&gt;` and\n```\nconst x = **y**;\n```",
    );
  });
});

describe("slack links and sources", () => {
  it("cannot be closed early by the label or the URL", () => {
    expect(slackLink("https://x.example/a|b>c", "A | B > C")).toBe(
      "<https://x.example/a%7Cb%3Ec|A B &gt; C>",
    );
  });

  it("lists named sources as links and documents without a URL by title", () => {
    const line = slackSources(
      [
        { key: "h/a", title: "Leave", url: "https://wiki.example.com/leave" },
        { key: "h/b", title: "Travel & expenses" },
      ],
      true,
    );
    expect(line).toBe("*Sources:* <https://wiki.example.com/leave|Leave> · _Travel &amp; expenses_");
    expect(slackSources([], true)).toBe("");
  });
});
