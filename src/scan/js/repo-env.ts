/**
 * Environment variables the repository itself sets to a ComfyDeploy API base:
 * `.env`-style files (`.env`, `.env.example`, `.env.production`, …) and a
 * Worker's `wrangler.toml` vars. A request built on `process.env.X`,
 * `import.meta.env.X`, `Bun.env.X`, `Deno.env.get("X")` or a Worker's `env.X`
 * is built on that base. Other values are not taken: a local address in an
 * env file is a developer's override, not the base the code ships with.
 */
import { posix } from "node:path";
import { parse as parseToml } from "smol-toml";
import { currentHostsAsLegacy, findLegacyHostMentions, type HostSet } from "../../core/urls.js";

const ENV_FILE = /^\.env(?:\.[\w.-]+)?$/;
const WRANGLER_FILE = "wrangler.toml";
const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_]\w*)\s*=\s*["']?([^"'#\s]+)/;

export class RepoEnv {
  private table: Map<string, string> | undefined;

  constructor(
    private readonly files: ReadonlySet<string>,
    private readonly read: (file: string) => string | undefined,
    private readonly hosts: HostSet,
  ) {}

  /** The ComfyDeploy API base the repository sets `name` to, if any (the first file by path wins). */
  value(name: string): string | undefined {
    this.table ??= this.build();
    return this.table.get(name);
  }

  private build(): Map<string, string> {
    const table = new Map<string, string>();
    const add = (name: string, value: unknown): void => {
      if (typeof value === "string" && !table.has(name) && this.isComfyBase(value)) table.set(name, value);
    };
    for (const file of [...this.files].sort()) {
      const base = posix.basename(file);
      if (ENV_FILE.test(base)) {
        for (const line of (this.read(file) ?? "").split(/\r?\n/)) {
          const m = ASSIGNMENT.exec(line);
          if (m) add(m[1]!, m[2]!);
        }
      } else if (base === WRANGLER_FILE) {
        for (const vars of wranglerVars(this.read(file)))
          for (const [name, value] of Object.entries(vars)) add(name, value);
      }
    }
    return table;
  }

  /** A V1 or V2 API base: the V1 paths are V1 on both hosts. */
  private isComfyBase(value: string): boolean {
    const mentions = [
      ...findLegacyHostMentions(value, this.hosts),
      ...findLegacyHostMentions(value, currentHostsAsLegacy(this.hosts)),
    ];
    return mentions.some((m) => m.kind === "api" && m.start === 0);
  }
}

/** The `[vars]` table of a wrangler.toml and those of its `[env.<name>.vars]` environments. */
function wranglerVars(text: string | undefined): Array<Record<string, unknown>> {
  if (!text) return [];
  let parsed: Record<string, unknown>;
  try {
    parsed = parseToml(text) as Record<string, unknown>;
  } catch {
    return [];
  }
  const tables = [parsed.vars];
  if (isTable(parsed.env)) for (const env of Object.values(parsed.env)) if (isTable(env)) tables.push(env.vars);
  return tables.filter(isTable);
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
