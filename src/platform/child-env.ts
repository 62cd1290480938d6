/**
 * The environment of every process the tool starts: git, and any code that
 * comes from a scanned repository (a project's tsc, node --check, Python).
 * Tokens the tool holds (GitHub, ComfyDeploy) and credential settings are
 * taken out, so a repository that ships a fake compiler or a git hook reads
 * nothing it could use against the other repositories a campaign touches.
 */

/** Variables dropped by name: the tokens the tool itself reads, and those CI runners hand out. */
export const SECRET_VARIABLES = [
  "GITHUB_TOKEN",
  "GH_TOKEN",
  "GH_ENTERPRISE_TOKEN",
  "GITHUB_ENTERPRISE_TOKEN",
  "COMFYDEPLOY_API_KEY",
  "ACTIONS_RUNTIME_TOKEN",
  "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
  "ACTIONS_ID_TOKEN_REQUEST_URL",
] as const;

/** Any other variable whose name says it holds a secret. */
const SECRET_NAME = /(TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE_?KEY|CREDENTIAL)/i;

/** Programs git (and ssh) would ask for a password: they answer with one. */
const ASKPASS_VARIABLES = ["GIT_ASKPASS", "SSH_ASKPASS"];

function isSecret(name: string): boolean {
  return (SECRET_VARIABLES as readonly string[]).includes(name) || SECRET_NAME.test(name);
}

/**
 * For git: the caller's environment without secrets. The caller's own git
 * settings (GIT_CONFIG_COUNT/KEY/VALUE, e.g. url.insteadOf) stay; askpass
 * programs stay only for commands that talk to a remote.
 */
export function gitEnv(base: NodeJS.ProcessEnv = process.env, options: { network: boolean }): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (isSecret(name)) continue;
    if (!options.network && ASKPASS_VARIABLES.includes(name)) continue;
    env[name] = value;
  }
  return env;
}

/**
 * For code from a scanned repository: no secrets and no git settings or
 * credential helpers at all (GIT_*, SSH_ASKPASS), whatever the caller set.
 */
export function repositoryCodeEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (isSecret(name) || name.startsWith("GIT_") || ASKPASS_VARIABLES.includes(name)) continue;
    env[name] = value;
  }
  return env;
}

/**
 * For ripgrep: no secrets, and no user config file (RIPGREP_CONFIG_PATH),
 * whose flags would change what the prefilter matches.
 */
export function ripgrepEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env = repositoryCodeEnv(base);
  delete env.RIPGREP_CONFIG_PATH;
  return env;
}
