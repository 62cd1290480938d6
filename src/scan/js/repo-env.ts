/**
 * Environment variables the repository itself sets to a ComfyDeploy API base:
 * `.env`-style files (`.env`, `.env.example`, `.env.production`, …), a
 * Worker's wrangler vars (`wrangler.toml`, `wrangler.json(c)`) and a Docker
 * Compose file's service `environment`. A request built on `process.env.X`,
 * `import.meta.env.X`, `Bun.env.X`, `Deno.env.get("X")` or a Worker's `env.X`
 * is built on that base. Other values are not taken: a local address in an
 * env file is a developer's override, not the base the code ships with.
 */
import { posix } from "node:path";
import { currentHostsAsLegacy, findLegacyHostMentions, type HostSet } from "../../core/urls.js";
import { parseWorkerVars, WRANGLER_FILES } from "../../lang/data/worker-vars.js";
import { COMPOSE_FILE, parseComposeEnv } from "../../lang/data/compose-env.js";

const ENV_FILE = /^\.env(?:\.[\w.-]+)?$/;
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
      } else if (WRANGLER_FILES.includes(base)) {
        for (const [name, set] of parseWorkerVars(file, this.read(file) ?? "")) add(name, set.value);
      } else if (COMPOSE_FILE.test(base)) {
        for (const [name, value] of parseComposeEnv(this.read(file) ?? "")) add(name, value);
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
