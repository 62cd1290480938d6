/**
 * `scan --online`: settles node pins at commits no offline table knows, with
 * the GitHub compare API. `GET /repos/<node repo>/compare/<v2.1.0>...<sha>`
 * answers "ahead"/"identical" when the commit contains v2.1.0 (ok: the
 * finding is dropped), "behind"/"diverged" when it does not (outdated: the
 * finding becomes an error), and 404 when the repository has no such commit
 * (a fork: it stays unknown). Answers are cached on disk; GITHUB_TOKEN, when
 * set, is sent but never printed.
 */
import type { Finding } from "../core/finding.js";
import { NODE_COMPONENT } from "../knowledge/migration.js";
import { type NodeRefDecision, verdictFromComparison } from "../knowledge/node-ref.js";
import { factsOf, type NodePinFacts } from "../core/facts.js";
import { nodePinClass, nodePinFacts, nodePinMessage } from "../lang/node-pin/report.js";
import { GitHubClient } from "../platform/github/client.js";
import { compareStatus } from "../platform/github/compare.js";
import { GitHubFailure } from "../platform/github/failure.js";
import { seconds } from "../platform/github/transport.js";
import { CompareCache, defaultCompareCacheFile } from "./compare-cache.js";

export { DEFAULT_GITHUB_API_URL } from "../platform/github/client.js";
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
  private readonly client: GitHubClient;

  constructor(options: GitHubCompareOptions = {}) {
    const token = options.token ?? process.env.GITHUB_TOKEN;
    this.token = token && token.trim() !== "" ? token.trim() : undefined;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.client = new GitHubClient({
      ...(options.apiUrl !== undefined ? { apiUrl: options.apiUrl } : {}),
      ...(this.token ? { token: this.token } : {}),
      attemptTimeoutMs: this.timeoutMs,
      // The first failure ends the online pass (the findings stay as the offline scan left them): nothing is retried.
      maxRetries: 0,
    });
    this.apiUrl = this.client.apiUrl;
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
    this.requests++;
    try {
      return await compareStatus(this.client, NODE_COMPONENT.repository, NODE_COMPONENT.minimumCommit, sha);
    } catch (error) {
      throw this.explained(error, sha);
    }
  }

  /** One line per failure, in the words `scan --online` has always used; the client has masked the token already. */
  private explained(error: unknown, sha: string): GitHubCompareError {
    if (!(error instanceof GitHubFailure)) return new GitHubCompareError("http", (error as Error).message);
    const advice = this.token ? "" : " Set GITHUB_TOKEN to raise the limit.";
    const limit = error.rateLimit;
    switch (error.kind) {
      case "rate-limit":
        if (limit?.resetAt !== undefined) {
          const at = new Date(limit.resetAt);
          const minutes = Math.max(1, Math.ceil((at.getTime() - this.now()) / 60_000));
          return new GitHubCompareError(
            "rate-limit",
            `GitHub API rate limit reached; it resets at ${at.toISOString().slice(11, 19)} UTC (in ${minutes} min).${advice}`,
          );
        }
        if (limit?.kind === "secondary" && limit.waitMs) {
          return new GitHubCompareError(
            "rate-limit",
            `GitHub API secondary rate limit reached; retry in ${Math.ceil(limit.waitMs / 1000)} s.${advice}`,
          );
        }
        return new GitHubCompareError("rate-limit", `GitHub API rate limit reached.${advice}`);
      case "auth":
        return new GitHubCompareError(
          "auth",
          "GitHub rejected the token (401): check GITHUB_TOKEN, or unset it to query anonymously",
        );
      case "timeout":
      case "budget":
        return new GitHubCompareError(
          "timeout",
          `GitHub API did not answer within ${seconds(this.timeoutMs).replace(/(\d)(m?s)$/, "$1 $2")} (${this.apiUrl})`,
        );
      case "network":
        return new GitHubCompareError("network", error.message);
      default:
        return new GitHubCompareError("http", `GitHub compare API answered HTTP ${error.status ?? "?"} for ${sha}`);
    }
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
export async function resolveUnknownNodePins(
  findings: readonly Finding[],
  options: GitHubCompareOptions = {},
): Promise<OnlineResolution> {
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
  if (pin?.verdict !== "unknown" || pin.refKind !== "sha" || !/^[0-9a-f]{7,40}$/i.test(pin.ref)) return undefined;
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
