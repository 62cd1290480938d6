/**
 * User configuration: JSON with comments in `.comfydeploy-migrate.json` or
 * `.comfydeploy-migrate.jsonc` (or the older `comfydeploy-migrate.config.json`),
 * or a `comfydeploy-migrate` key in package.json, found by lilconfig from the
 * scanned directory up to the repository root; plus command-line flags.
 * Flags win; lists from both are merged.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { parse as parseJsonc, printParseErrorCode, type ParseError } from "jsonc-parser";
import { lilconfig, type Loader } from "lilconfig";
import { isStackOverflow, UsageError } from "../core/errors.js";
import { SEVERITY_RANK, type RuleId, type Severity } from "../rules/catalog.js";
import { DEFAULT_HOSTS, type HostSet } from "../core/urls.js";
import type { RuleSettingInput } from "./config-schema.js";
import type { FAIL_ON_CHOICES } from "./fail-on.js";
import { LineIndex } from "../core/location.js";

export { FAIL_ON_CHOICES } from "./fail-on.js";

export const PACKAGE_JSON_KEY = "comfydeploy-migrate";
/** Where a config may live in each directory, first match wins. */
export const CONFIG_FILES = [
  ".comfydeploy-migrate.json",
  ".comfydeploy-migrate.jsonc",
  "comfydeploy-migrate.config.json",
] as const;
/** The older name, still read. */
export const CONFIG_FILE = "comfydeploy-migrate.config.json";

export type FailOn = (typeof FAIL_ON_CHOICES)[number];

/** One rule's settings after normalisation. */
export interface RuleSetting {
  off?: boolean;
  severity?: Severity;
  /** Globs the rule is limited to; `!glob` excludes. */
  paths?: string[];
}

export type RuleSettings = Partial<Record<RuleId, RuleSetting>>;

export interface UserConfig {
  /** Extra hosts that serve the V1 API (white-label or self-hosted). */
  legacyHosts: string[];
  /** Extra hosts that serve V2. */
  currentHosts: string[];
  /** Hosts never reported. */
  ignoreHosts: string[];
  include: string[];
  exclude: string[];
  failOn?: FailOn;
  reportUnusedIgnores?: boolean;
  rules: RuleSettings;
}

const EMPTY: UserConfig = { legacyHosts: [], currentHosts: [], ignoreHosts: [], include: [], exclude: [], rules: {} };

/** Help text of every command's --config option. */
export const CONFIG_OPTION_HELP =
  'Config file, JSON with comments (default: the nearest .comfydeploy-migrate.json, .comfydeploy-migrate.jsonc or package.json "comfydeploy-migrate" key, from the scanned directory up to the repository root)';

/** CI services set CI (to true, 1 or a name); an empty value or "false"/"0" does not count. */
export function isCi(env: NodeJS.ProcessEnv): boolean {
  const value = (env.CI ?? "").trim().toLowerCase();
  return value !== "" && value !== "false" && value !== "0";
}

/** True when a file name is one of the tool's own config files (never scanned: it names V1 hosts on purpose). */
export function isConfigFile(file: string): boolean {
  return (CONFIG_FILES as readonly string[]).includes(basename(file));
}

/**
 * The config for a scanned directory: `explicitPath` when given, else the
 * nearest config file from `root` up to the repository root (the directory
 * holding `.git`; without one, `root` alone). `source` is the file it came from.
 */
export async function loadConfig(
  root: string,
  explicitPath?: string,
): Promise<{ config: UserConfig; source?: string }> {
  if (explicitPath) {
    const text = await readFile(explicitPath, "utf8").catch(() => {
      throw new UsageError(`config file not found: ${explicitPath}`);
    });
    const where = explicitPath;
    const value = basename(explicitPath) === "package.json" ? packageSection(text) : jsonc(text, where);
    return {
      config: value === undefined ? structuredClone(EMPTY) : await normalise(value, where),
      source: explicitPath,
    };
  }
  const explorer = lilconfig(PACKAGE_JSON_KEY, {
    searchPlaces: [...CONFIG_FILES, "package.json"],
    loaders: { ".json": loadJsonc, ".jsonc": loadJsonc },
    stopDir: repositoryRoot(resolve(root)),
    cache: false,
  });
  const found = await explorer.search(resolve(root));
  if (!found || found.config === undefined || found.config === null) return { config: structuredClone(EMPTY) };
  const shown = displayPath(found.filepath);
  const where = basename(found.filepath) === "package.json" ? `${shown} "${PACKAGE_JSON_KEY}"` : shown;
  return { config: await normalise(found.config, where), source: found.filepath };
}

/** lilconfig's loader: JSON with comments and trailing commas; a broken package.json is the scanner's finding, not a config error. */
const loadJsonc: Loader = (filepath, content) => {
  if (basename(filepath) === "package.json") return { [PACKAGE_JSON_KEY]: packageSection(content) };
  return jsonc(content, displayPath(filepath));
};

/** A config path as the user would name it: relative to the working directory when below it. */
function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel === "" || rel.startsWith("..") ? file : rel;
}

/** Windows editors save JSON with a UTF-8 BOM; JSON parsers refuse it. */
function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function packageSection(text: string): unknown {
  try {
    const pkg: unknown = JSON.parse(withoutBom(text));
    return typeof pkg === "object" && pkg !== null ? (pkg as Record<string, unknown>)[PACKAGE_JSON_KEY] : undefined;
  } catch {
    return undefined;
  }
}

function jsonc(raw: string, where: string): unknown {
  const text = withoutBom(raw);
  const errors: ParseError[] = [];
  let value: unknown;
  try {
    value = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  } catch (error) {
    if (isStackOverflow(error)) throw tooDeep(where);
    throw error;
  }
  const first = errors[0];
  if (first) {
    const at = new LineIndex(text).position(first.offset);
    throw new UsageError(`${where}:${at.line}:${at.column}: not valid JSON: ${printParseErrorCode(first.error)}`);
  }
  return value;
}

/** A config is a few flat lists and maps: nesting deeper than the parser's stack is not one. */
function tooDeep(where: string): UsageError {
  return new UsageError(`${where}: not a valid config: nested too deeply`);
}

/** The nearest directory at or above `dir` that holds `.git`; `dir` itself when there is none. */
function repositoryRoot(dir: string): string {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, ".git"))) return current;
    if (dirname(current) === current) return dir;
  }
}

async function normalise(value: unknown, where: string): Promise<UserConfig> {
  // The schema (and zod) are loaded only when there is a config to check.
  const { validateConfig } = await import("./config-schema.js");
  let result: ReturnType<typeof validateConfig>;
  try {
    result = validateConfig(value);
  } catch (error) {
    if (isStackOverflow(error)) throw tooDeep(where);
    throw error;
  }
  if (!result.ok) throw new UsageError(`${where}: ${result.problem}`);
  const c = result.config;
  const hosts = (key: "legacyHosts" | "currentHosts" | "ignoreHosts"): string[] =>
    (c[key] ?? []).map((host, i) => {
      try {
        return normalizeHost(host);
      } catch {
        throw new UsageError(`${where}: "${key}[${i}]" is not a host name: ${host}`);
      }
    });
  return {
    legacyHosts: hosts("legacyHosts"),
    currentHosts: hosts("currentHosts"),
    ignoreHosts: hosts("ignoreHosts"),
    include: c.include ?? [],
    exclude: c.exclude ?? [],
    ...(c.failOn !== undefined ? { failOn: c.failOn } : {}),
    ...(c.reportUnusedIgnores !== undefined ? { reportUnusedIgnores: c.reportUnusedIgnores } : {}),
    rules: Object.fromEntries(
      Object.entries(c.rules ?? {}).map(([id, setting]) => [id, ruleSetting(setting as RuleSettingInput)]),
    ),
  };
}

function ruleSetting(setting: RuleSettingInput): RuleSetting {
  if (setting === "off") return { off: true };
  if (typeof setting === "string") return { severity: setting };
  const { off, severity, paths } = setting;
  return {
    ...(off !== undefined ? { off } : {}),
    ...(severity !== undefined ? { severity } : {}),
    ...(paths !== undefined ? { paths } : {}),
  };
}

/** Accepts `host`, `https://host` or `https://host/api/` and keeps the host name. */
export function normalizeHost(value: string): string {
  const trimmed = value.trim().toLowerCase();
  const match = /^(?:[a-z][a-z0-9+.-]*:)?\/\/([^/?#]+)/.exec(trimmed);
  const host = match ? match[1]! : trimmed.split("/")[0]!;
  if (!/^[a-z0-9.-]+(:\d+)?$/.test(host)) throw new UsageError(`not a host name: ${value}`);
  return host;
}

export function hostSetFor(config: UserConfig): HostSet {
  return {
    legacy: [...new Set([...DEFAULT_HOSTS.legacy, ...config.legacyHosts])],
    current: [...new Set([...DEFAULT_HOSTS.current, ...config.currentHosts])],
    ignored: [...new Set(config.ignoreHosts)],
  };
}

export function meetsThreshold(severity: Severity, failOn: FailOn): boolean {
  return failOn !== "none" && SEVERITY_RANK[severity] >= SEVERITY_RANK[failOn];
}
