// The pre-flight connect before a session with a BYOK provider: one TCP connection opened and
// closed, nothing written on it, and a refused or proxied route reported as such.
import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  checkProviderReachable,
  PROVIDER_REACHABLE_FOR_MS,
  providerReachabilityGate,
} from "../../src/llm/provider-reachability.js";
import { freePort } from "../support/free-port.js";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
});

/** A TCP server that records every connection and every byte it is sent. */
async function listening(): Promise<{ port: number; connections: () => number; bytes: () => number }> {
  let connections = 0;
  let bytes = 0;
  const server = createServer((socket) => {
    connections++;
    socket.on("data", (chunk) => {
      bytes += chunk.length;
    });
    socket.on("error", () => {});
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return { port, connections: () => connections, bytes: () => bytes };
}

describe("checkProviderReachable", () => {
  it("a listening server: reachable, after one connection on which nothing is sent", async () => {
    const server = await listening();
    const check = await checkProviderReachable({ baseUrl: `http://127.0.0.1:${server.port}/v1` }, {});
    expect(check).toEqual({ reachable: true });
    await new Promise((r) => setTimeout(r, 50));
    expect(server.connections()).toBe(1);
    expect(server.bytes()).toBe(0);
  });

  it("a closed port: not reachable, naming the address and ECONNREFUSED", async () => {
    const port = await freePort();
    const check = await checkProviderReachable({ baseUrl: `http://127.0.0.1:${port}/v1` }, {});
    expect(check).toEqual({
      reachable: false,
      reason: `cannot connect to 127.0.0.1:${port} (ECONNREFUSED: nothing listens there)`,
    });
  });

  it("an IPv6 literal is connected to without its brackets and named as the URL writes it", async () => {
    const port = await freePort();
    const check = await checkProviderReachable({ baseUrl: `http://[::1]:${port}/v1` }, {});
    expect(check.reachable).toBe(false);
    if (check.reachable === false) expect(check.reason).toContain(`[::1]:${port}`);
  });

  it("behind a proxy variable nothing is asked: the direct route is not the real one", async () => {
    const server = await listening();
    const baseUrl = `http://127.0.0.1:${server.port}/v1`;
    const check = await checkProviderReachable({ baseUrl }, { HTTP_PROXY: "http://127.0.0.1:9" });
    expect(check).toEqual({ reachable: "unknown", why: "requests go through the proxy in $HTTP_PROXY" });
    const https = await checkProviderReachable(
      { baseUrl: "https://127.0.0.1:9/v1" },
      { HTTP_PROXY: "http://127.0.0.1:9" },
    );
    expect(https.reachable).toBe("unknown");
    expect(server.connections()).toBe(0);
  });
});

describe("providerReachabilityGate", () => {
  it("remembers a success only for a while: one connect per window, a new one after it", async () => {
    const server = await listening();
    let clock = 1_000_000;
    const gate = providerReachabilityGate(
      { baseUrl: `http://127.0.0.1:${server.port}/v1` },
      {},
      {
        now: () => clock,
      },
    );
    expect(await gate.check()).toEqual({ reachable: true });
    clock += PROVIDER_REACHABLE_FOR_MS - 1;
    expect(await gate.check()).toEqual({ reachable: true });
    await new Promise((r) => setTimeout(r, 50));
    expect(server.connections()).toBe(1);
    clock += 1;
    expect(await gate.check()).toEqual({ reachable: true });
    await new Promise((r) => setTimeout(r, 50));
    expect(server.connections()).toBe(2);
  });

  it("a server that went down inside the window is found down once the window ends", async () => {
    const server = await listening();
    let clock = 0;
    const gate = providerReachabilityGate(
      { baseUrl: `http://127.0.0.1:${server.port}/v1` },
      {},
      {
        now: () => clock,
        reachableForMs: 5_000,
      },
    );
    expect((await gate.check()).reachable).toBe(true);
    const down = servers.pop()!;
    await new Promise<void>((r) => down.close(() => r()));
    clock += 5_000;
    const check = await gate.check();
    expect(check.reachable).toBe(false);
  });

  it("never remembers a failure: the next check finds a server that has come up", async () => {
    const port = await freePort();
    const gate = providerReachabilityGate({ baseUrl: `http://127.0.0.1:${port}/v1` }, {}, { now: () => 0 });
    expect((await gate.check()).reachable).toBe(false);
    expect((await gate.check()).reachable).toBe(false);
    const server = createServer((socket) => socket.on("error", () => {}));
    servers.push(server);
    await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
    expect(await gate.check()).toEqual({ reachable: true });
  });

  it("questions arriving together share one connect", async () => {
    const server = await listening();
    const gate = providerReachabilityGate({ baseUrl: `http://127.0.0.1:${server.port}/v1` }, {});
    const checks = await Promise.all([gate.check(), gate.check(), gate.check()]);
    expect(checks).toEqual([{ reachable: true }, { reachable: true }, { reachable: true }]);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.connections()).toBe(1);
  });
});
