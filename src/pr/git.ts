/**
 * git as `pr` and `campaign` use it: the platform runner (safe settings, a
 * scrubbed environment, no prompts) plus a token that is masked in every
 * error and passed as an HTTP header in git's environment config, to
 * network commands only (never argv, never a URL, never .git/config).
 */
import { RuntimeFailure } from "../core/errors.js";
import { maskKnownSecrets, redactUrlCredentials } from "../core/redact.js";
import { type GitResult, runGit } from "../platform/git.js";

export type { GitResult };

export interface GitOptions {
  /** Extra environment (identity, config entries). */
  env?: NodeJS.ProcessEnv;
  /** Exit codes that are answers, not failures. */
  allow?: readonly number[];
}

/** Where the checkout stood before `pr` touched it, so it can be put back exactly. */
export interface CheckoutPosition {
  /** The checked-out branch, or undefined when HEAD is detached (pull_request checkouts). */
  branch?: string;
  commit: string;
}

export class Git {
  /** Values that must never reach the terminal: the token and the header built from it. */
  private readonly secrets: string[] = [];
  /** The token's config entries; the runner turns hooks off for every command. */
  private readonly credentials: Array<[string, string]> = [];

  constructor(readonly cwd: string) {}

  /**
   * Authenticates network commands to an https remote with an extra
   * Authorization header. The checkout action persists its own header under
   * the same key; the empty entry first resets that list so only one is sent.
   */
  useToken(remoteUrl: string, token: string): void {
    const origin = httpOriginOf(remoteUrl);
    const basic = Buffer.from(`x-access-token:${token}`).toString("base64");
    this.secrets.push(token, basic);
    // file:// and ssh remotes take no HTTP header, and a plain-http one is not trusted with the token.
    if (!origin?.startsWith("https:")) return;
    const key = `http.${origin}/.extraheader`;
    this.credentials.push([key, ""], [key, `AUTHORIZATION: basic ${basic}`]);
  }

  mask(text: string): string {
    return maskKnownSecrets(text, this.secrets);
  }

  async run(args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
    const result = await runGit(this.cwd, args, {
      credentials: this.credentials,
      ...(options.env ? { env: options.env } : {}),
    });
    if (result.code !== 0 && !(options.allow ?? []).includes(result.code)) {
      throw new RuntimeFailure(
        `git ${args.find((a) => !a.startsWith("-")) ?? ""} failed: ${this.mask(explain(result))}`,
      );
    }
    return result;
  }

  async output(args: readonly string[], options: GitOptions = {}): Promise<string> {
    return (await this.run(args, options)).stdout.trim();
  }

  /** The root-relative prefix of cwd ("" at the top, "sub/dir/" below it). */
  async prefix(): Promise<string> {
    return this.output(["rev-parse", "--show-prefix"]);
  }

  async position(): Promise<CheckoutPosition> {
    const commit = await this.output(["rev-parse", "--verify", "HEAD"]);
    const branch = await this.run(["symbolic-ref", "--quiet", "--short", "HEAD"], { allow: [1] });
    return branch.code === 0 ? { branch: branch.stdout.trim(), commit } : { commit };
  }

  /** Tracked files with changes anywhere in the repository, staged or not. */
  async trackedChanges(): Promise<string[]> {
    const { stdout } = await this.run(["status", "--porcelain", "-z", "--untracked-files=no"]);
    return stdout
      .split("\0")
      .filter((entry) => entry.length > 3)
      .map((entry) => entry.slice(3));
  }

  async isValidBranchName(name: string): Promise<boolean> {
    return (await this.run(["check-ref-format", "--branch", name], { allow: [1, 128] })).code === 0;
  }

  async remoteUrl(remote: string): Promise<string | undefined> {
    const result = await this.run(["remote", "get-url", remote], { allow: [1, 2, 128] });
    return result.code === 0 ? result.stdout.trim() : undefined;
  }

  /** Puts HEAD (and the work tree, which only `pr`'s own edits can have touched) back where it was. */
  async restore(position: CheckoutPosition): Promise<void> {
    const target = position.branch ? [position.branch] : ["--detach", position.commit];
    await this.run(["checkout", "--quiet", "--force", ...target]);
  }

  /**
   * The tip of a branch on a remote and its tree, or undefined when the
   * branch does not exist there. Fetched without touching local branches.
   */
  async remoteBranch(remote: string, branch: string): Promise<{ commit: string; tree: string } | undefined> {
    // A shallow checkout (actions/checkout's default) only needs the tip, not the branch's history.
    const shallow = (await this.output(["rev-parse", "--is-shallow-repository"])) === "true";
    const refspec = `+refs/heads/${branch}:refs/remotes/${remote}/${branch}`;
    const fetched = await this.run(
      ["fetch", "--quiet", "--no-tags", "--no-write-fetch-head", ...(shallow ? ["--depth=1"] : []), remote, refspec],
      {
        allow: [128],
      },
    );
    if (fetched.code !== 0) {
      if (/couldn't find remote ref/i.test(fetched.stderr)) return undefined;
      throw new RuntimeFailure(`git fetch from ${remote} failed: ${this.mask(explain(fetched))}`);
    }
    const commit = await this.output(["rev-parse", "--verify", `refs/remotes/${remote}/${branch}^{commit}`]);
    const tree = await this.output(["rev-parse", "--verify", `${commit}^{tree}`]);
    return { commit, tree };
  }

  /**
   * Force-pushes a commit to a remote branch, but only over the tip that was
   * seen (or onto no branch at all), so a push that raced another is refused.
   */
  async forcePush(remote: string, commit: string, branch: string, expectedTip: string | undefined): Promise<void> {
    const ref = `refs/heads/${branch}`;
    const pushed = await this.run(
      ["push", "--porcelain", `--force-with-lease=${ref}:${expectedTip ?? ""}`, remote, `${commit}:${ref}`],
      {
        allow: [1, 128],
      },
    );
    if (pushed.code !== 0) {
      throw new RuntimeFailure(`git push of ${branch} to ${remote} was rejected: ${this.mask(explainPush(pushed))}`);
    }
  }
}

/** `https://github.com` for http(s) remotes; undefined for ssh, file and local paths. */
export function httpOriginOf(remoteUrl: string): string | undefined {
  try {
    const url = new URL(remoteUrl);
    return url.protocol === "https:" || url.protocol === "http:" ? `${url.protocol}//${url.host}` : undefined;
  } catch {
    return undefined;
  }
}

/** The line of git's stderr that says what went wrong. */
function explain(result: GitResult): string {
  const lines = result.stderr
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const line = lines.find((l) => /^(fatal|error):/i.test(l)) ?? lines[0] ?? `exit code ${result.code}`;
  return redactUrlCredentials(line.replace(/^(fatal|error):\s*/i, ""));
}

/**
 * For a push: git's verdict on the ref ("pre-receive hook declined",
 * "protected branch hook declined", "stale info") and the remote's own first
 * error line, which names the rule that refused it.
 */
function explainPush(result: GitResult): string {
  const lines = `${result.stdout}\n${result.stderr}`.split("\n").map((l) => l.trim());
  // --porcelain: "!<TAB>src:dst<TAB>[remote rejected] (reason)"
  const refLine = lines.find((l) => l.startsWith("!"))?.split("\t")[2];
  const verdict = refLine ? (/\(([^)]+)\)/.exec(refLine)?.[1] ?? refLine.replace(/[[\]]/g, "")) : undefined;
  const remote = (
    lines.find((l) => /^remote:\s*(error|GH\d+)/i.test(l)) ?? lines.find((l) => /^remote:\s*\S/.test(l))
  )?.replace(/^remote:\s*/, "");
  const reason = [verdict, remote].filter(Boolean).join(": ");
  return redactUrlCredentials(reason || explain(result));
}
