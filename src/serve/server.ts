/**
 * A local emulator of the V2 workflow-run service (and, with `legacy`, the V1
 * endpoints), for tests and for trying a migrated app offline.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readJsonBody } from "./body.js";
import { keepLast } from "./bounded-log.js";
import { HttpError, unprocessable } from "./http-error.js";
import { IDEMPOTENCY_HEADER, IdempotencyKeys } from "./idempotency.js";
import type { DeploymentRule, EmulatorOptions } from "./options.js";
import { type RunRecord, RunStore } from "./runs.js";
import { NOT_AN_OBJECT, queueRequestSchema, runIdSchema, validationItems } from "./validation.js";

export interface Emulator {
  /** e.g. http://127.0.0.1:4010/api */
  baseUrl: string;
  port: number;
  store: RunStore;
  /** The most recent requests received (a bounded log), for tests: method and path, never a header. */
  requests: Array<{ method: string; path: string }>;
  close(): Promise<void>;
}

const API_PREFIX = "/api";

export async function startEmulator(
  options: EmulatorOptions,
  listen: { host: string; port: number },
): Promise<Emulator> {
  const store = new RunStore(options);
  const keys = new IdempotencyKeys();
  store.onEvict = (id) => keys.forget(id);
  const queueSchema = queueRequestSchema(Boolean(options.allowLocalWebhooks));
  const requests: Emulator["requests"] = [];
  let served = 0;
  const server: Server = createServer((req, res) => {
    keepLast(requests, { method: req.method ?? "GET", path: req.url ?? "/" });
    if (options.onRequest) {
      const started = performance.now();
      const report = options.onRequest;
      res.once("finish", () =>
        report({
          method: req.method ?? "GET",
          url: req.url ?? "/",
          status: res.statusCode,
          ms: performance.now() - started,
        }),
      );
    }
    const index = served++;
    handle(req, res, index).catch((error: unknown) => {
      if (error instanceof HttpError) send(res, error.status, error.body, error.headers);
      else send(res, 500, { detail: "Internal Server Error" });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse, index: number): Promise<void> {
    const faults = options.faults;
    if (faults.latencyMs > 0) await new Promise((done) => setTimeout(done, faults.latencyMs));
    if (index < faults.first429 || Math.random() < faults.rate429) {
      throw new HttpError(429, { detail: "Too Many Requests" }, { "retry-after": "1" });
    }
    if (index < faults.first429 + faults.first500 || Math.random() < faults.rate500)
      throw new HttpError(500, { detail: "Internal Server Error" });
    if (Math.random() < faults.rateHang) return; // never answered: the client's time-out has to fire

    const url = parsedUrl(req.url ?? "/");
    const path = url.pathname.replace(/\/+$/, "");
    const method = req.method ?? "GET";
    const route = routeOf(path, url, options.legacy);
    if (!route) throw new HttpError(404, { detail: "Not Found" });
    if (route.method !== method) throw new HttpError(405, { detail: "Method Not Allowed" }, { allow: route.method });
    authorize(req);
    switch (route.name) {
      case "queue":
      case "legacy-create":
        return send(res, 200, {
          run_id: queueRun(await readJson(req), IdempotencyKeys.keyOf(req.headers[IDEMPOTENCY_HEADER])),
        });
      case "get":
        return send(res, 200, getRun(route.runId!));
      case "legacy-get":
        return send(res, 200, legacyView(getRun(url.searchParams.get("run_id") ?? "", "query")));
    }
  }

  function authorize(req: IncomingMessage): void {
    const header = req.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!match) throw new HttpError(401, { detail: "Not authenticated" }, { "www-authenticate": "Bearer" });
    if (options.token !== undefined && match[1] !== options.token)
      throw new HttpError(401, { detail: "Invalid token" });
  }

  function readJson(req: IncomingMessage): Promise<unknown> {
    return readJsonBody(req, options.maxBodyBytes);
  }

  /** The id of the run queued, or of the run an earlier request with the same idempotency key queued. */
  function queueRun(body: unknown, key: string | undefined): string {
    const parsed = queueSchema.safeParse(body);
    if (!parsed.success) {
      const isObject = typeof body === "object" && body !== null && !Array.isArray(body);
      throw unprocessable(isObject ? validationItems(parsed.error, "body") : [NOT_AN_OBJECT]);
    }
    const earlier = key === undefined ? undefined : keys.runFor(key, body);
    if (earlier !== undefined) return earlier;
    const deployment = deploymentFor(parsed.data.deployment_id);
    const run = store.queue(parsed.data, deployment);
    if (key !== undefined) keys.remember(key, body, run.id);
    return run.id;
  }

  function deploymentFor(id: string): DeploymentRule {
    const lower = id.toLowerCase();
    if (options.deployments.length === 0) return { id: lower, gpu: "A10G", outcome: "success", migrated: true };
    const rule = options.deployments.find((d) => d.id === lower);
    if (!rule) throw new HttpError(404, { detail: "Deployment not found" });
    return rule;
  }

  function getRun(runId: string, where: "path" | "query" = "path"): RunRecord {
    const parsed = runIdSchema.safeParse(runId);
    if (!parsed.success) {
      throw unprocessable(validationItems(parsed.error, where).map((item) => ({ ...item, loc: [where, "run_id"] })));
    }
    const run = store.read(runId.toLowerCase());
    if (!run) throw new HttpError(404, { detail: "Run not found" });
    return run;
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const hostForUrl = listen.host.includes(":") ? `[${listen.host}]` : listen.host;
  return {
    baseUrl: `http://${hostForUrl}:${port}${API_PREFIX}`,
    port,
    store,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        store.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type RouteName = "queue" | "get" | "legacy-create" | "legacy-get";

function routeOf(
  path: string,
  url: URL,
  legacy: boolean,
): { name: RouteName; method: string; runId?: string } | undefined {
  if (path === `${API_PREFIX}/run/deployment/queue`) return { name: "queue", method: "POST" };
  if (path === `${API_PREFIX}/run`) {
    if (!legacy) return undefined;
    return url.searchParams.has("run_id")
      ? { name: "legacy-get", method: "GET" }
      : { name: "legacy-create", method: "POST" };
  }
  const match = /^\/api\/run\/([^/]+)$/.exec(path);
  if (match) return { name: "get", method: "GET", runId: decodedSegment(match[1]!) };
  return undefined;
}

/** A request target that is not a URL names no route: 404, never a 500. */
function parsedUrl(target: string): URL {
  try {
    return new URL(target, "http://emulator");
  } catch {
    throw new HttpError(404, { detail: "Not Found" });
  }
}

/** A path segment decoded as the service's router does: a malformed `%` escape stays as written (then fails validation, 422). */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** What V1's GET /run?run_id= answered: the fields its SDK kept. */
function legacyView(run: RunRecord): Record<string, unknown> {
  return { id: run.id, status: run.status, outputs: run.outputs, live_status: run.live_status, progress: run.progress };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}
