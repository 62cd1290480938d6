/**
 * Which GitHub repository the pull request goes to, and where its web UI and
 * API live: from flags, then GitHub Actions' environment, then `origin`.
 */
import { UsageError } from "../core/errors.js";
import { redactUrlCredentials } from "../core/redact.js";

export interface GitHubRepository {
  owner: string;
  name: string;
  /** Web UI base, e.g. https://github.com (for links in the body). */
  serverUrl: string;
  /** REST API base, e.g. https://api.github.com. */
  apiUrl: string;
  /** Where owner/name came from, for the dry-run plan. */
  source: string;
}

export const DEFAULT_API_URL = "https://api.github.com";
const NAME_PART = /^[A-Za-z0-9_.-]+$/;

export interface RepositoryInputs {
  repo?: string | undefined;
  apiUrl?: string | undefined;
  originUrl?: string | undefined;
  env: NodeJS.ProcessEnv;
}

/** The repository, or undefined when neither a flag, Actions, nor a GitHub-looking origin names it. */
export function resolveRepository(inputs: RepositoryInputs): GitHubRepository | undefined {
  // Empty variables count as unset, as they do on Actions.
  const env = (name: string): string | undefined => inputs.env[name]?.trim() || undefined;
  const apiUrl = validApiUrl(
    inputs.apiUrl ?? env("GITHUB_API_URL") ?? DEFAULT_API_URL,
    inputs.apiUrl ? "--api-url" : "GITHUB_API_URL",
  );
  const origin = inputs.originUrl ? parseRemoteUrl(inputs.originUrl) : undefined;
  const serverUrl = (env("GITHUB_SERVER_URL") ?? origin?.serverUrl ?? serverUrlOfApi(apiUrl)).replace(/\/+$/, "");
  if (inputs.repo !== undefined) return { ...parseSlug(inputs.repo, "--repo"), serverUrl, apiUrl, source: "--repo" };
  const actionsRepo = env("GITHUB_REPOSITORY");
  if (actionsRepo)
    return { ...parseSlug(actionsRepo, "GITHUB_REPOSITORY"), serverUrl, apiUrl, source: "GITHUB_REPOSITORY" };
  if (origin)
    return {
      owner: origin.owner,
      name: origin.name,
      serverUrl,
      apiUrl,
      source: `origin (${redactUrlCredentials(inputs.originUrl!)})`,
    };
  return undefined;
}

function parseSlug(value: string, where: string): { owner: string; name: string } {
  const [owner, name, ...rest] = value.trim().split("/");
  if (!owner || !name || rest.length > 0 || !NAME_PART.test(owner) || !NAME_PART.test(name)) {
    throw new UsageError(`${where} must be owner/name, got "${value}"`);
  }
  return { owner, name: name.replace(/\.git$/, "") };
}

/** owner/name and the web base from an https, ssh or scp-style remote URL. */
export function parseRemoteUrl(remote: string): { owner: string; name: string; serverUrl: string } | undefined {
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):([^/\s]+)\/([^/\s]+?)(?:\.git)?\/?$/.exec(remote);
  if (scp && !remote.includes("://")) return slugWith(scp[2]!, scp[3]!, `https://${scp[1]}`);
  let url: URL;
  try {
    url = new URL(remote);
  } catch {
    return undefined;
  }
  if (!["https:", "http:", "ssh:", "git:"].includes(url.protocol)) return undefined;
  const parts = url.pathname.replace(/^\/+|\/+$/g, "").split("/");
  if (parts.length !== 2) return undefined;
  const web =
    url.protocol === "http:" || url.protocol === "https:" ? `${url.protocol}//${url.host}` : `https://${url.hostname}`;
  return slugWith(parts[0]!, parts[1]!.replace(/\.git$/, ""), web);
}

function slugWith(
  owner: string,
  name: string,
  serverUrl: string,
): { owner: string; name: string; serverUrl: string } | undefined {
  const bare = name.replace(/\.git$/, "");
  return NAME_PART.test(owner) && NAME_PART.test(bare) ? { owner, name: bare, serverUrl } : undefined;
}

function validApiUrl(value: string, where: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${where} is not a URL: ${value}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new UsageError(`${where} must be http(s): ${value}`);
  if (url.username || url.password)
    throw new UsageError(`${where} must not carry credentials; set GITHUB_TOKEN or GH_TOKEN`);
  return value.replace(/\/+$/, "");
}

/** github.com for api.github.com; the host itself for GitHub Enterprise Server's /api/v3. */
function serverUrlOfApi(apiUrl: string): string {
  const url = new URL(apiUrl);
  if (url.hostname === "api.github.com") return "https://github.com";
  if (url.hostname.startsWith("api.")) return `${url.protocol}//${url.host.slice(4)}`;
  return `${url.protocol}//${url.host}`;
}
