/**
 * Airflow connections the repository defines, by connection id, with the
 * base URL the HTTP provider's hook builds from each (`HttpHook.get_conn`:
 * a host holding `://` is the base; else `{schema or "http"}://{host}[:port]`).
 * Read from what a repository ships its Airflow with:
 * - `AIRFLOW_CONN_<ID>` in env files, Dockerfiles, shell scripts, Compose
 *   `environment` and Helm/Kubernetes `env` lists (`- name: …` then `value: …`),
 *   as a URI (percent-encoded parts decoded) or as JSON;
 * - `airflow connections add <id> --conn-uri … | --conn-host … --conn-schema …
 *   | --conn-json …` (and Airflow 1's `--add --conn_id`) in scripts and Dockerfiles;
 * - connection files for `airflow connections import` and the local secrets
 *   backend (JSON or YAML: id → URI or fields), and chart values listing
 *   connections (`- id: …, type: http, host: …`).
 * A connection defined nowhere in the repository is not guessed.
 */
import { posix } from "node:path";
import { parse as parseYaml } from "yaml";

export interface AirflowConnection {
  /** The base URL the HTTP hook joins endpoints onto. */
  base: string;
  file: string;
  /** 1-based line of the definition. */
  line: number;
}

type Fields = { conn_type?: string; host?: string; schema?: string; port?: string | number };

/** Files worth reading for connections: env, shell, Docker, YAML/JSON configs. */
const CANDIDATE_FILE =
  /(?:^|\/)(?:\.env[\w.-]*|[^/]*\.(?:env|sh|bash|ya?ml|json|txt|cfg|ini)|Dockerfile[\w.-]*|[^/]*\.Dockerfile)$/i;
const ENV_ASSIGNMENT = /\bAIRFLOW_CONN_([A-Z0-9_]+)["']?\s*(?:=|:\s|\s+(?=[^\s=:]))\s*/g;
const HELM_NAME = /^\s*-?\s*name:\s*["']?AIRFLOW_CONN_([A-Z0-9_]+)["']?\s*$/;
const HELM_VALUE = /^\s*value:\s*/;
const CLI_ADD = /\bairflow\s+connections\s+(?:add\s+(?:(['"]?)([\w.-]+)\1)|--add\b)/;

/** The connections a repository defines: the first definition by file path wins. */
export function airflowConnections(
  files: readonly string[],
  read: (file: string) => string | undefined,
): Map<string, AirflowConnection> {
  const found = new Map<string, AirflowConnection>();
  const add = (id: string, fields: Fields | undefined, file: string, line: number): void => {
    const key = id.toLowerCase();
    const base = fields && hookBase(fields);
    if (base && !found.has(key)) found.set(key, { base, file, line });
  };
  for (const file of [...files].filter((f) => CANDIDATE_FILE.test(f) && !f.includes("node_modules/")).sort()) {
    const text = read(file);
    const connectionsFile = /connection/i.test(posix.basename(file)) && /\.(?:json|ya?ml)$/i.test(file);
    if (
      !text ||
      !(connectionsFile || /AIRFLOW_CONN_|airflow\s+connections|conn_type|conn_id|\bconnections\s*:/i.test(text))
    )
      continue;
    const lines = text.split(/\r?\n/);
    lines.forEach((line, index) => {
      for (const m of line.matchAll(ENV_ASSIGNMENT)) {
        const value = leadingValue(line.slice(m.index + m[0].length));
        if (value) add(m[1]!, connectionValue(value), file, index + 1);
      }
      const named = HELM_NAME.exec(line);
      const next = named ? lines.slice(index + 1, index + 3).find((l) => HELM_VALUE.test(l)) : undefined;
      if (named && next) {
        const value = leadingValue(next.replace(HELM_VALUE, ""));
        if (value) add(named[1]!, connectionValue(value), file, lines.indexOf(next, index + 1) + 1);
      }
    });
    for (const command of cliCommands(lines)) add(command.id, command.fields, file, command.line);
    if (connectionsFile || (/\.(?:json|ya?ml)$/i.test(file) && /conn_type|conn_id|\bconnections\s*:/.test(text)))
      for (const [id, fields] of connectionFileEntries(file, text)) add(id, fields, file, lineOf(lines, fields, id));
  }
  return found;
}

/** A quoted value, or the text up to whitespace or a comment. */
function leadingValue(rest: string): string | undefined {
  const quote = rest[0];
  if (quote === '"' || quote === "'") {
    const end = rest.indexOf(quote, 1);
    return end > 1 ? rest.slice(1, end) : undefined;
  }
  return /^[^\s#]+/.exec(rest)?.[0];
}

/** A connection written as a URI or as JSON. */
export function connectionValue(value: string): Fields | undefined {
  const text = value.trim();
  if (text.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(text);
      return parsed && typeof parsed === "object" ? fieldsOf(parsed as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }
  const m = /^([a-z][\w+.-]*):\/\/(?:[^@/?#]*@)?([^:/?#]*)(?::(\d+))?(?:\/([^?#]*))?/i.exec(text);
  if (!m) return undefined;
  return {
    conn_type: m[1]!.replace(/-/g, "_"),
    host: decode(m[2]!),
    ...(m[4] ? { schema: decode(m[4]) } : {}),
    ...(m[3] ? { port: m[3] } : {}),
  };
}

/**
 * The hook's base. A URI's path is the hook's scheme when it names one
 * (`http://host/https`); any other path is kept as the base's path, as the
 * people writing such a URI mean it (`https://host/api`).
 */
export function hookBase(fields: Fields): string | undefined {
  const host = fields.host?.trim();
  if (!host) return undefined;
  if (host.includes("://")) return host.replace(/\/+$/, "");
  const schema = fields.schema?.trim() ?? "";
  const isScheme = /^https?$/i.test(schema);
  const type = fields.conn_type?.toLowerCase();
  const scheme = isScheme ? schema.toLowerCase() : type === "https" ? "https" : "http";
  const port = fields.port !== undefined && `${fields.port}` !== "" ? `:${fields.port}` : "";
  const path = !isScheme && schema ? `/${schema.replace(/^\/+|\/+$/g, "")}` : "";
  return `${scheme}://${host.replace(/\/+$/, "")}${port}${path}`;
}

function fieldsOf(object: Record<string, unknown>): Fields | undefined {
  const text = (v: unknown): string | undefined =>
    typeof v === "string" || typeof v === "number" ? `${v}` : undefined;
  // Astro's airflow_settings.yaml spells the fields `conn_host`, `conn_schema`, `conn_port`.
  const host = text(object.host) ?? text(object.conn_host);
  if (!host) return undefined;
  const type = text(object.conn_type) ?? text(object.type);
  const schema = text(object.schema) ?? text(object.conn_schema);
  const port = text(object.port) ?? text(object.conn_port);
  return { host, ...(type ? { conn_type: type } : {}), ...(schema ? { schema } : {}), ...(port ? { port } : {}) };
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** `airflow connections add` commands, continuation lines joined, with the line the command starts on. */
function cliCommands(lines: readonly string[]): Array<{ id: string; fields: Fields | undefined; line: number }> {
  const out: Array<{ id: string; fields: Fields | undefined; line: number }> = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/airflow\s+connections/.test(lines[i]!)) continue;
    let command = lines[i]!;
    for (let j = i; /\\\s*$/.test(lines[j]!) && j + 1 < lines.length; j++)
      command = `${command.replace(/\\\s*$/, " ")}${lines[j + 1]}`;
    const m = CLI_ADD.exec(command);
    if (!m) continue;
    const option = (...names: string[]): string | undefined => {
      for (const name of names) {
        const at = new RegExp(`${name}(?:=|\\s+)`).exec(command);
        if (at) return leadingValue(command.slice(at.index + at[0].length));
      }
      return undefined;
    };
    const id = m[2] ?? option("--conn[-_]id");
    if (!id) continue;
    const uri = option("--conn[-_]uri");
    const json = option("--conn[-_]json");
    const host = option("--conn[-_]host");
    const fields = uri
      ? connectionValue(uri)
      : json
        ? connectionValue(json)
        : host
          ? fieldsOf({
              host,
              type: option("--conn[-_]type"),
              schema: option("--conn[-_]schema"),
              port: option("--conn[-_]port"),
            })
          : undefined;
    out.push({ id, fields, line: i + 1 });
  }
  return out;
}

/**
 * A connections file: `{ id: "uri" | { conn_type, host, … } }` (what `airflow
 * connections export` writes), or a list of `{ conn_id | id, host, … }`
 * anywhere in the document (chart values).
 */
function connectionFileEntries(file: string, text: string): Array<[string, Fields]> {
  let doc: unknown;
  try {
    doc = posix.extname(file).toLowerCase() === ".json" ? JSON.parse(text) : parseYaml(text);
  } catch {
    return [];
  }
  const out: Array<[string, Fields]> = [];
  const visit = (node: unknown, depth: number): void => {
    if (depth > 6 || !node || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const item of node) {
        const entry = item as Record<string, unknown> | null;
        const id = entry && typeof entry === "object" ? (entry.conn_id ?? entry.id) : undefined;
        const fields = typeof id === "string" && entry ? fieldsOf(entry) : undefined;
        if (typeof id === "string" && fields && (entry?.conn_type ?? entry?.type) !== undefined) out.push([id, fields]);
        else visit(item, depth + 1);
      }
      return;
    }
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      const entry = value as Record<string, unknown> | null;
      if (depth === 0 && typeof value === "string" && /^[a-z][\w+.-]*:\/\//i.test(value)) {
        const fields = connectionValue(value);
        if (fields) out.push([key, fields]);
      } else if (entry && typeof entry === "object" && !Array.isArray(entry) && "conn_type" in entry) {
        const fields = fieldsOf(entry);
        if (fields) out.push([key, fields]);
      } else visit(value, depth + 1);
    }
  };
  visit(doc, 0);
  return out;
}

/** The line of an entry: where its host is written after its id, or its id's line. */
function lineOf(lines: readonly string[], fields: Fields, id: string): number {
  const idLine = lines.findIndex((l) => l.includes(id));
  const from = Math.max(idLine, 0);
  const hostLine = lines.findIndex((l, i) => i >= from && fields.host !== undefined && l.includes(fields.host));
  return (hostLine >= 0 ? hostLine : from) + 1;
}
