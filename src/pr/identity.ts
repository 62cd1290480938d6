/** Who the fix commit is by: "Name <email>" from flags, or the bot identity GitHub shows as an app. */
import { UsageError } from "../core/errors.js";

export interface GitIdentity {
  name: string;
  email: string;
}

export const BOT_IDENTITY: GitIdentity = {
  name: "comfydeploy-migrate[bot]",
  email: "comfydeploy-migrate[bot]@users.noreply.github.com",
};

export function parseIdentity(value: string | undefined, option: string): GitIdentity | undefined {
  if (value === undefined) return undefined;
  const match = /^\s*([^<>]*?)\s*<([^<>\s]+@[^<>\s]+)>\s*$/.exec(value);
  if (!match || match[1] === "")
    throw new UsageError(`${option} must look like "Name <email@example.com>", got "${value}"`);
  return { name: match[1]!, email: match[2]! };
}

/** The environment git reads the author and committer from, so no config file is touched. */
export function identityEnv(author: GitIdentity, committer: GitIdentity): NodeJS.ProcessEnv {
  return {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_COMMITTER_NAME: committer.name,
    GIT_COMMITTER_EMAIL: committer.email,
  };
}
