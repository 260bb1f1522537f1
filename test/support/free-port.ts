import { createServer } from "node:net";

/**
 * A loopback port nothing listens on at the moment of asking: for a server a test is about to
 * start, or for an address that must refuse connections (a service that is down).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}
