/** For the check tests: options, and local servers that `closeAll` (run it after each test) closes. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { CheckOptions } from "../../src/check/live-check.js";
import { TEST_TOKEN } from "./emulator.js";

export const DEPLOYMENT = "0c2d5a5e-8f1e-4a59-9d77-3f0c3f3e9c11";
export const RUN_ID = "5b7d2c1e-3f4a-4b6c-8d9e-0a1b2c3d4e5f";

export const closers: Array<() => Promise<void> | void> = [];

export async function closeAll(): Promise<void> {
  for (const close of closers.splice(0).reverse()) await close();
}

export function checkOptions(baseUrl: string, overrides: Partial<CheckOptions> = {}): CheckOptions {
  return {
    baseUrl,
    token: TEST_TOKEN,
    deploymentId: DEPLOYMENT,
    flag: "partner_v2",
    waitSeconds: 5,
    requestTimeoutMs: 2000,
    maxRetries: 3,
    pollIntervalMs: 10,
    maxBackoffMs: 50,
    now: new Date("2025-04-10T00:00:00Z"),
    ...overrides,
  };
}

/** An HTTP server on 127.0.0.1 (port 0 unless given) answering with `handler`; closed after the test. */
export async function localServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  port = 0,
): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  await new Promise<void>((done) => server.listen(port, "127.0.0.1", done));
  closers.push(
    () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  );
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
