// A Bolt receiver that a test drives directly: `deliver(body)` hands Bolt an Events API payload
// exactly as Socket Mode or the HTTP receiver would, and reports whether Bolt acknowledged it.
import type { App, Receiver, ReceiverEvent } from "@slack/bolt";

export class TestReceiver implements Receiver {
  private app: App | undefined;
  acks = 0;

  init(app: App): void {
    this.app = app;
  }

  async start(): Promise<void> {}

  async stop(): Promise<void> {}

  /** Resolves when Bolt has run the listeners (which only queue the answer). */
  async deliver(body: Record<string, unknown>): Promise<{ acked: boolean }> {
    if (!this.app) throw new Error("receiver not initialised");
    let acked = false;
    const event: ReceiverEvent = {
      body,
      ack: async () => {
        acked = true;
        this.acks++;
      },
    };
    await this.app.processEvent(event);
    return { acked };
  }
}

let eventCounter = 0;

/** An Events API envelope around one event. */
export function eventEnvelope(event: Record<string, unknown>, teamId = "T0001"): Record<string, unknown> {
  eventCounter++;
  return {
    token: "verification-token",
    team_id: teamId,
    api_app_id: "A0001",
    type: "event_callback",
    event_id: `Ev${eventCounter}`,
    event_time: 1_800_000_000,
    event,
  };
}
