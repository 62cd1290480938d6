/**
 * `scan --online`: settles node pins at commits no offline table knows, with
 * the GitHub compare API. `GET /repos/<node repo>/compare/<v2.1.0>...<sha>`
 * answers "ahead"/"identical" when the commit contains v2.1.0 (ok: the
 * finding is dropped), "behind"/"diverged" when it does not (outdated: the
 * finding becomes an error), and 404 when the repository has no such commit
 * (a fork: it stays unknown). Answers are cached on disk; GITHUB_TOKEN, when
 * set, is sent but never printed.
 */
import { request } from "undici";
import type { Finding } from "../core/finding.js";
import { NODE_COMPONENT } from "../knowledge/migration.js";
import { type NodeRefDecision, verdictFromComparison } from "../knowledge/node-ref.js";
import { maskKnownSecrets } from "../core/redact.js";
import { factsOf, type NodePinFacts } from "../core/facts.js";
import { nodePinClass, nodePinFacts, nodePinMessage } from "../scan/scanners/machine/node-pin-finding.js";
import { TOOL } from "../platform/tool-info.js";
import { CompareCache, defaultCompareCacheFile } from "./compare-cache.js";

export const DEFAULT_GITHUB_API_URL = "https://api.github.com";
const DEFAULT_TIMEOUT_MS = 10_000;

export interface GitHubCompareOptions {
  /** Base URL of the API (tests point it at a local server). */
  apiUrl?: string;
  /** Defaults to the GITHUB_TOKEN environment variable. */
  token?: string;
  /** JSON cache file; defaults to $XDG_CACHE_HOME (or ~/.cache)/comfydeploy-migrate/github-compare.json. */
  cacheFile?: string;
  timeoutMs?: number;
  now?: () => number;
}

export interface CompareAnswer {
  verdict: "ok" | "outdated" | "unknown";
  /** The compare `status`, or "not-found" when the repository has no such commit. */
  status: string;
  fromCache: boolean;
}

/** Why the API could not answer; the message is one line and never holds the token. */
export class GitHubCompareError extends Error {
  override readonly name = "GitHubCompareError";

  constructor(
    readonly kind: "rate-limit" | "timeout" | "network" | "auth" | "http",
    message: string,
  ) {
    super(message);
  }
}

export class GitHubCompare {
  /** Requests sent so far (cache hits send none). */
  requests = 0;
  private readonly apiUrl: string;
  private readonly token: string | undefined;
  private readonly timeoutMs: number;
  private readonly cache: CompareCache;
  private readonly now: () => number;

  constructor(options: GitHubCompareOptions = {}) {
    this.apiUrl = (options.apiUrl ?? DEFAULT_GITHUB_API_URL).replace(/\/+$/, "");
    const token = options.token ?? process.env.GITHUB_TOKEN;
    this.token = token && token.trim() !== "" ? token.trim() : undefined;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.now = options.now ?? Date.now;
    this.cache = new CompareCache(options.cacheFile ?? defaultCompareCacheFile(), this.now);
  }

  /** Where `sha` stands relative to the minimum release. Throws GitHubCompareError. */
  async compare(sha: string): Promise<CompareAnswer> {
    const key = `${NODE_COMPONENT.repository}:${NODE_COMPONENT.minimumCommit}...${sha.toLowerCase()}`;
    const cached = await this.cache.get(key);
    if (cached !== undefined) return answerFor(cached, true);
    const status = await this.fetchStatus(sha);
    await this.cache.set(key, status);
    return answerFor(status, false);
  }

  async saveCache(): Promise<void> {
    await this.cache.save();
  }

  private async fetchStatus(sha: string): Promise<string> {
    const url = `${this.apiUrl}/repos/${NODE_COMPONENT.repository}/compare/${NODE_COMPONENT.minimumCommit}...${encodeURIComponent(sha)}?per_page=1`;
    const headers: Record<string, string> = {
      accept: "application/vnd.github+json",
      "x-github-api-version": "2022-11-28",
      "user-agent": `${TOOL.name}/${TOOL.version}`,
    };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    this.requests++;
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(url, {
        method: "GET",
        headers,
        signal: AbortSignal.timeout(this.timeoutMs),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
    } catch (error) {
      throw this.failure(describeNetworkError(error, this.apiUrl, this.timeoutMs));
    }
    const { statusCode } = response;
    let body: string;
    try {
      body = await response.body.text();
    } catch (error) {
      throw this.failure(describeNetworkError(error, this.apiUrl, this.timeoutMs));
    }
    if (statusCode === 404) return "not-found";
    if (statusCode === 200) {
      const status = parseStatus(body);
      if (status) return status;
      throw this.failure(new GitHubCompareError("http", `GitHub compare API answered without a status for ${sha}`));
    }
    const rateLimit = rateLimitMessage(statusCode, response.headers, this.now(), Boolean(this.token));
    if (rateLimit) throw this.failure(new GitHubCompareError("rate-limit", rateLimit));
    if (statusCode === 401) throw this.failure(new GitHubCompareError("auth", "GitHub rejected the token (401): check GITHUB_TOKEN, or unset it to query anonymously"));
    throw this.failure(new GitHubCompareError("http", `GitHub compare API answered HTTP ${statusCode} for ${sha}`));
  }

  /** Masks the token in any message, whatever produced it. */
  private failure(error: GitHubCompareError): GitHubCompareError {
    return new GitHubCompareError(error.kind, maskKnownSecrets(error.message, [this.token]));
  }
}

export interface OnlineResolution {
  /** The findings with settled node pins dropped (ok) or raised to errors (outdated). */
  findings: Finding[];
  /** Distinct commits settled, through the API or the cache. */
  settled: number;
  /** One-line reasons why some commits stayed unknown (rate limit, time-out); empty when all went well. */
  problems: string[];
}

/**
 * Re-decides `node-component-pin` findings whose verdict is unknown and whose
 * ref is a commit. The first failure (rate limit, time-out, network) stops
 * further requests: the remaining findings stay as they are.
 */
export async function resolveUnknownNodePins(findings: readonly Finding[], options: GitHubCompareOptions = {}): Promise<OnlineResolution> {
  const shas = [...new Set(findings.map(resolvableRef).filter((ref) => ref !== undefined))];
  if (shas.length === 0) return { findings: [...findings], settled: 0, problems: [] };
  const client = new GitHubCompare(options);
  const answers = new Map<string, CompareAnswer>();
  const problems: string[] = [];
  for (const sha of shas) {
    try {
      answers.set(sha, await client.compare(sha));
    } catch (error) {
      problems.push(error instanceof GitHubCompareError ? error.message : "GitHub compare API failed");
      break;
    }
  }
  await client.saveCache();
  const out: Finding[] = [];
  for (const finding of findings) {
    const ref = resolvableRef(finding);
    const answer = ref ? answers.get(ref) : undefined;
    if (!answer || answer.verdict === "unknown") out.push(finding);
    else if (answer.verdict === "outdated") out.push(outdatedFinding(finding, answer.status));
    // "ok": the pin contains v2.1.0; nothing to report.
  }
  const settled = [...answers.values()].filter((a) => a.verdict !== "unknown").length;
  return { findings: out, settled, problems };
}

/** The commit (lower case) of a node pin the compare API can settle: a SHA whose verdict is unknown. */
function resolvableRef(finding: Finding): string | undefined {
  const pin = finding.ruleId === "node-component-pin" ? factsOf(finding, "node-pin") : undefined;
  if (!pin || pin.verdict !== "unknown" || pin.refKind !== "sha" || !/^[0-9a-f]{7,40}$/i.test(pin.ref)) return undefined;
  return pin.ref.toLowerCase();
}

function outdatedFinding(finding: Finding, status: string): Finding {
  const pin = factsOf(finding, "node-pin") as NodePinFacts;
  const format = pin.format;
  const decision: NodeRefDecision = { ref: pin.ref, refKind: "sha", verdict: "outdated" };
  const { severity, fix } = nodePinClass(decision, format);
  return {
    ...finding,
    severity,
    fix,
    message: `${nodePinMessage(decision, format)} (GitHub compare: ${status})`,
    facts: { ...nodePinFacts(decision, format), compare: status },
  };
}

function answerFor(status: string, fromCache: boolean): CompareAnswer {
  return { verdict: status === "not-found" ? "unknown" : verdictFromComparison(status), status, fromCache };
}

function parseStatus(body: string): string | undefined {
  try {
    const status = (JSON.parse(body) as { status?: unknown }).status;
    return typeof status === "string" ? status : undefined;
  } catch {
    return undefined;
  }
}

/** 403/429 with no requests left (primary limit) or a Retry-After (secondary limit). */
function rateLimitMessage(statusCode: number, headers: Record<string, string | string[] | undefined>, now: number, withToken: boolean): string | undefined {
  if (statusCode !== 403 && statusCode !== 429) return undefined;
  const header = (name: string): string | undefined => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const remaining = header("x-ratelimit-remaining");
  const reset = Number(header("x-ratelimit-reset"));
  const retryAfter = Number(header("retry-after"));
  const advice = withToken ? "" : " Set GITHUB_TOKEN to raise the limit.";
  if (remaining === "0") {
    if (Number.isFinite(reset) && reset > 0) {
      const at = new Date(reset * 1000);
      const minutes = Math.max(1, Math.ceil((at.getTime() - now) / 60_000));
      return `GitHub API rate limit reached; it resets at ${at.toISOString().slice(11, 19)} UTC (in ${minutes} min).${advice}`;
    }
    return `GitHub API rate limit reached.${advice}`;
  }
  if (Number.isFinite(retryAfter) && retryAfter > 0) return `GitHub API secondary rate limit reached; retry in ${retryAfter} s.${advice}`;
  if (statusCode === 429) return `GitHub API rate limit reached.${advice}`;
  return undefined;
}

function describeNetworkError(error: unknown, apiUrl: string, timeoutMs: number): GitHubCompareError {
  const err = error as { name?: string; code?: string; message?: string };
  const timedOut =
    err?.name === "TimeoutError" ||
    err?.name === "AbortError" ||
    err?.code === "UND_ERR_HEADERS_TIMEOUT" ||
    err?.code === "UND_ERR_BODY_TIMEOUT" ||
    err?.code === "UND_ERR_CONNECT_TIMEOUT";
  if (timedOut) return new GitHubCompareError("timeout", `GitHub API did not answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`} (${apiUrl})`);
  return new GitHubCompareError("network", `could not reach the GitHub API at ${apiUrl}: ${err?.code ?? err?.message ?? "network error"}`);
}
