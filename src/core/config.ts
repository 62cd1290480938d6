/**
 * User configuration: `comfydeploy-migrate.config.json` at the scanned root,
 * or a `comfydeploy-migrate` key in its package.json, plus command-line flags.
 * Flags win; lists from both are merged.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { UsageError } from "./errors.js";
import { SEVERITY_RANK, type Severity } from "../rules/catalog.js";
import { DEFAULT_HOSTS, type HostSet } from "./urls.js";

export const CONFIG_FILE = "comfydeploy-migrate.config.json";
export const PACKAGE_JSON_KEY = "comfydeploy-migrate";

export type FailOn = Severity | "none";
export const FAIL_ON_CHOICES = ["error", "warning", "info", "none"] as const;

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
}

const EMPTY: UserConfig = { legacyHosts: [], currentHosts: [], ignoreHosts: [], include: [], exclude: [] };

export async function loadConfig(root: string, explicitPath?: string): Promise<{ config: UserConfig; source?: string }> {
  if (explicitPath) {
    const text = await readFile(explicitPath, "utf8").catch(() => {
      throw new UsageError(`config file not found: ${explicitPath}`);
    });
    return { config: parseConfig(parseJson(text, explicitPath), explicitPath), source: explicitPath };
  }
  const configPath = join(root, CONFIG_FILE);
  const text = await readFile(configPath, "utf8").catch(() => undefined);
  if (text !== undefined) return { config: parseConfig(parseJson(text, CONFIG_FILE), CONFIG_FILE), source: CONFIG_FILE };
  const pkgText = await readFile(join(root, "package.json"), "utf8").catch(() => undefined);
  if (pkgText !== undefined) {
    let pkg: unknown;
    try {
      pkg = JSON.parse(pkgText);
    } catch {
      return { config: { ...EMPTY } }; // a broken package.json is the scanner's finding, not a config error
    }
    const section = (pkg as Record<string, unknown> | null)?.[PACKAGE_JSON_KEY];
    if (section !== undefined) {
      return { config: parseConfig(section, `package.json "${PACKAGE_JSON_KEY}"`), source: "package.json" };
    }
  }
  return { config: { ...EMPTY } };
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${where} is not valid JSON: ${(error as Error).message}`);
  }
}

function parseConfig(value: unknown, where: string): UserConfig {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError(`${where} must be a JSON object`);
  }
  const raw = value as Record<string, unknown>;
  const known = new Set(["legacyHosts", "currentHosts", "ignoreHosts", "include", "exclude", "failOn", "$schema"]);
  for (const key of Object.keys(raw)) {
    if (!known.has(key)) throw new UsageError(`${where}: unknown key "${key}" (known: ${[...known].filter((k) => k !== "$schema").join(", ")})`);
  }
  const list = (key: string): string[] => {
    const v = raw[key];
    if (v === undefined) return [];
    if (!Array.isArray(v) || v.some((item) => typeof item !== "string")) throw new UsageError(`${where}: "${key}" must be an array of strings`);
    return v as string[];
  };
  const failOn = raw.failOn;
  if (failOn !== undefined && !(FAIL_ON_CHOICES as readonly unknown[]).includes(failOn)) {
    throw new UsageError(`${where}: "failOn" must be one of ${FAIL_ON_CHOICES.join(", ")}`);
  }
  return {
    legacyHosts: list("legacyHosts").map(normalizeHost),
    currentHosts: list("currentHosts").map(normalizeHost),
    ignoreHosts: list("ignoreHosts").map(normalizeHost),
    include: list("include"),
    exclude: list("exclude"),
    ...(failOn !== undefined ? { failOn: failOn as FailOn } : {}),
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
