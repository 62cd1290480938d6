/**
 * From the command line to the campaign's repositories: the campaign file
 * (default ./campaign.yml), plus an organisation's repositories listed
 * through the GitHub API when the file or --github-org asks for them.
 */
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { UsageError } from "../core/errors.js";
import { type CampaignFile, readCampaignFile } from "./campaign-file.js";
import { CampaignGitHub, type OrgRepository } from "./github-api.js";
import { resolveTargets, type Target } from "./targets.js";
import { DEFAULT_API_URL } from "./tool-api.js";

export const DEFAULT_CAMPAIGN_FILE = "campaign.yml";

export interface LoadOptions {
  file?: string;
  githubOrg?: string;
  githubTopic?: string;
  apiUrl?: string;
  token?: string;
  env: NodeJS.ProcessEnv;
}

export interface LoadedCampaign {
  file: CampaignFile;
  /** The file read, or undefined when the organisation alone defines the campaign. */
  path?: string;
  targets: Target[];
  apiUrl: string;
  /** The web host of that API, where GitHub repositories are cloned from. */
  githubHost: string;
}

export async function loadCampaign(options: LoadOptions): Promise<LoadedCampaign> {
  const explicit = options.file !== undefined;
  const path = resolve(options.file ?? DEFAULT_CAMPAIGN_FILE);
  let file: CampaignFile = {};
  if (explicit || existsSync(path)) file = await readCampaignFile(explicit ? options.file! : path);
  else if (!options.githubOrg)
    throw new UsageError(`no campaign file: ${DEFAULT_CAMPAIGN_FILE} not found here; name one, or pass --github-org`);

  const apiUrl = apiUrlOf(
    options.apiUrl ?? file.github?.apiUrl ?? (options.env.GITHUB_API_URL?.trim() || DEFAULT_API_URL),
  );
  const githubHost = githubHostOf(apiUrl, options.env);
  const org = options.githubOrg ?? file.github?.org;
  const topic = options.githubTopic ?? file.github?.topic;
  let listed: OrgRepository[] = [];
  if (org) {
    if (!options.token)
      throw new UsageError(`listing ${org}'s repositories needs a GitHub token: set GITHUB_TOKEN or GH_TOKEN`);
    const github = new CampaignGitHub({ apiUrl, token: options.token });
    listed = await github.listRepositories(org, topic, file.github?.includeArchived ?? false);
  }
  const targets = resolveTargets(file, dirname(path), listed, githubHost);
  if (targets.length === 0) {
    throw new UsageError(
      org
        ? `the campaign has no repositories: ${org}${topic ? ` (topic ${topic})` : ""} lists none and the file none`
        : `${options.file ?? DEFAULT_CAMPAIGN_FILE}: "repositories" lists none`,
    );
  }
  return { file, ...(explicit || existsSync(path) ? { path } : {}), targets, apiUrl, githubHost };
}

function apiUrlOf(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`the GitHub API URL is not a URL: ${value}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new UsageError(`the GitHub API URL must be http(s): ${value}`);
  if (url.username || url.password)
    throw new UsageError("the GitHub API URL must not carry credentials; set GITHUB_TOKEN or GH_TOKEN");
  return value.replace(/\/+$/, "");
}

/** github.com for api.github.com; on Actions GITHUB_SERVER_URL; else the Enterprise host itself. */
function githubHostOf(apiUrl: string, env: NodeJS.ProcessEnv): string {
  const server = env.GITHUB_SERVER_URL?.trim();
  if (server) {
    try {
      return new URL(server).host;
    } catch {
      // fall through to the API's host
    }
  }
  const host = new URL(apiUrl).host;
  return host.startsWith("api.") ? host.slice(4) : host;
}
