/**
 * A Cloudflare Worker's configured variables: what its code reads as
 * `env.NAME`, set in `wrangler.toml` (`[vars]`, `[env.<name>.vars]`) or
 * `wrangler.json(c)` (`vars`, `env.<name>.vars`). A V1 base kept there is
 * the base the Worker's requests are built on, so the JS/TS analyser can
 * resolve `env.COMFY_BASE + "/run"` (read by scan/js/repo-env.ts).
 */
import { parse as parseJsonc } from "jsonc-parser";
import { parse as parseToml } from "smol-toml";

export interface WorkerVar {
  value: string;
  /** The configuration file and the 1-based line where the value is set. */
  file: string;
  line: number;
}

export const WRANGLER_FILES: readonly string[] = ["wrangler.toml", "wrangler.jsonc", "wrangler.json"];

/** The string vars a wrangler file sets: the top level's first, then each environment's for names not set yet. */
export function parseWorkerVars(file: string, text: string): Map<string, WorkerVar> {
  const out = new Map<string, WorkerVar>();
  let config: unknown;
  try {
    config = file.endsWith(".toml") ? parseToml(text) : parseJsonc(text, [], { allowTrailingComma: true });
  } catch {
    return out;
  }
  const tables = [varsOf(config)];
  const environments = objectOf(config)?.env;
  for (const environment of Object.values(objectOf(environments) ?? {})) tables.push(varsOf(environment));
  for (const table of tables) {
    for (const [name, value] of Object.entries(table)) {
      if (typeof value !== "string" || out.has(name)) continue;
      out.set(name, { value, file, line: lineOf(text, name, value) });
    }
  }
  return out;
}

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function varsOf(config: unknown): Record<string, unknown> {
  return objectOf(objectOf(config)?.vars) ?? {};
}

/** The line setting `name` to `value` (`NAME = "…"`, `"NAME": "…"`); the first line naming it otherwise. */
function lineOf(text: string, name: string, value: string): number {
  const lines = text.split("\n");
  const key = new RegExp(`(^|[\\s{,])["']?${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}["']?\\s*[=:]`);
  const setting = lines.findIndex((line) => key.test(line) && line.includes(value));
  const naming = setting >= 0 ? setting : lines.findIndex((line) => key.test(line));
  return naming + 1;
}
