/**
 * The environment a Docker Compose file gives its services
 * (`services.<name>.environment`, as a map or as a list of `NAME=value`),
 * so code reading `process.env.X` sees what the repository deploys it with.
 */
import { parse as parseYaml } from "yaml";

/** docker-compose.yml, docker-compose.prod.yaml, compose.yml, compose.override.yaml, … */
export const COMPOSE_FILE = /^(?:docker-)?compose(?:\.[\w-]+)?\.ya?ml$/;

/** The string values a compose file's services set, by variable name (the first service by order wins). */
export function parseComposeEnv(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch {
    return out;
  }
  const services = (doc as { services?: unknown } | null)?.services;
  if (!services || typeof services !== "object") return out;
  for (const service of Object.values(services as Record<string, unknown>)) {
    const env = (service as { environment?: unknown } | null)?.environment;
    const entries: Array<[string, unknown]> = Array.isArray(env)
      ? env.flatMap((item): Array<[string, unknown]> => {
          if (typeof item !== "string" || !item.includes("=")) return [];
          const at = item.indexOf("=");
          return [[item.slice(0, at).trim(), item.slice(at + 1).trim()]];
        })
      : env && typeof env === "object"
        ? Object.entries(env as Record<string, unknown>)
        : [];
    for (const [name, value] of entries) if (typeof value === "string" && !out.has(name)) out.set(name, value);
  }
  return out;
}
