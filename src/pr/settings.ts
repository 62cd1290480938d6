/** What one `pr` run is asked to do: the pull request, the fix it carries, and how to reach GitHub. */
import type { NodeRefTarget, TransformId } from "../../transforms/types.js";
import type { HostSet } from "../core/urls.js";
import type { RuleSettings } from "../platform/config.js";
import type { GitIdentity } from "./identity.js";

export interface PrSettings {
  /** Absolute path of the directory to fix (the repository or a directory in it). */
  root: string;
  /** The path as the user gave it, for commands shown in the body. */
  pathArg: string;
  branch: string;
  base?: string;
  title: string;
  labels: string[];
  reviewers: string[];
  /** org/team; GitHub wants the team's slug only. */
  teamReviewers: string[];
  /** Logins to assign on a new pull request (none when absent). */
  assignees?: string[];
  draft: boolean;
  /** The fix commit's message as given (`--commit-message`); default: the title and what fix changed. */
  commitMessage?: string;
  closeIfClean: boolean;
  author: GitIdentity;
  committer: GitIdentity;
  repo?: string;
  apiUrl?: string;
  token?: string;
  /** All GitHub API calls and waits of the run (`--api-budget`; default 120 s). */
  apiBudgetMs?: number;
  fix: {
    hosts: HostSet;
    include: string[];
    exclude: string[];
    transforms: TransformId[];
    nodeRef: NodeRefTarget;
    rules?: RuleSettings;
  };
  /** Run the project's own checks on the changed files and report them in the body (`--no-verify` turns it off). */
  verify: boolean;
  check?: { deploymentId: string; baseUrl: string; token: string; flag: string; waitSeconds: number };
  /** The command line that reproduces this run. */
  command: string;
  /** The command line that reproduces the remaining-findings report. */
  scanCommand: string;
  env: NodeJS.ProcessEnv;
  /** Progress for people, on stderr. */
  log: (line: string) => void;
}
