import { describe, expect, it } from "vitest";
import { peelTraceMarker } from "../../src/knowledge-tool/result-text.js";
import {
  bodyE,
  muninnBodyD,
  muninnFenceD,
  muninnTextD,
  textB,
  textE,
  traceUrlMarkerE,
} from "./huginn-fixtures.js";

function roundTrips(text: string): { body: string; marker: string } {
  const peeled = peelTraceMarker(text);
  expect(peeled.body + peeled.marker).toBe(text);
  return peeled;
}

describe("peelTraceMarker", () => {
  it("peels Huginn's pointer URL line with its blank line and trailing newline", () => {
    expect(roundTrips(textE)).toEqual({ body: bodyE, marker: traceUrlMarkerE });
  });
  it("peels a pointer id line", () => {
    const marker = "\n\nhuginn-trace-id: a3f8b21c4e9d0a55";
    expect(roundTrips(textB + marker)).toEqual({ body: textB, marker });
  });
  it("peels an inline fence (muninn fixture D)", () => {
    expect(roundTrips(muninnTextD)).toEqual({ body: muninnBodyD, marker: muninnFenceD });
  });
  it("peels a fence with trailing whitespace and a multi-line payload", () => {
    const marker = '\n\n```huginn-trace\n{\n  "a": 1\n}\n```\n\n';
    expect(roundTrips(`body${marker}`)).toEqual({ body: "body", marker });
  });
  it("leaves a text without a marker alone", () => {
    expect(roundTrips(textB)).toEqual({ body: textB, marker: "" });
    expect(roundTrips("")).toEqual({ body: "", marker: "" });
    expect(roundTrips("\n\n")).toEqual({ body: "\n\n", marker: "" });
  });
  it("does not peel a code block that merely ends the text", () => {
    const text = "## Doc\ncollection: `w` doc_id: `1`\n\n```huginn-trace\n{}\n```\n\nmore\n```js\nx()\n```";
    expect(roundTrips(text).marker).toBe("");
  });
  it("does not peel an unterminated fence or a pointer without a value", () => {
    expect(roundTrips('body\n\n```huginn-trace\n{"a":1}').marker).toBe("");
    expect(roundTrips("body\n\nhuginn-trace-url:").marker).toBe("");
  });
  it("peels a marker that is the whole text", () => {
    expect(roundTrips("huginn-trace-id: abc")).toEqual({ body: "", marker: "huginn-trace-id: abc" });
  });
});
