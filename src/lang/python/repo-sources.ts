/**
 * The repository's files other than Python that a Python value can come
 * from: the env files (read by the caller, so every language shares one
 * reader) and the config documents a module loads (`config.yaml`,
 * `settings.toml`, `config.json`, `settings.ini`), parsed into plain values.
 * A document is found from the path the code names: beside the module, in a
 * folder above it (the working directory the app runs from), else the one
 * file of that name in the repository.
 */
import { posix } from "node:path";
import { parse as parseJsonc } from "jsonc-parser";
import { parse as parseToml } from "smol-toml";
import { parse as parseYaml } from "yaml";
import type { PyValues } from "./values.js";

export interface PySources {
  /** The value the repository's env files give a variable, when it is a ComfyDeploy API base. */
  env?(name: string): string | undefined;
  /** The parsed config document a module names by `path` (as written in the code). */
  document?(path: string): unknown;
  /** Whether a value is a ComfyDeploy API base (a constructor argument is taken only then). */
  isApiBase?(value: string): boolean;
  /** The calls, anywhere in the package, of a class or function this module defines (by its name). */
  callers?(name: string): PyCallSite[];
}

/** A call in some module of the package: that module's values and the call's `(`. */
export interface PyCallSite {
  values: PyValues;
  open: number;
}

/** File names a config loader can read, by the format they are parsed as. */
export const CONFIG_FILE = /\.(ya?ml|json|toml|ini|cfg|conf)$/i;

export class ConfigDocuments {
  private readonly parsed = new Map<string, unknown>();
  private byName: Map<string, string[]> | undefined;

  constructor(
    private readonly files: readonly string[],
    private readonly read: (file: string) => string | undefined,
  ) {}

  /** The document `path` names from `importer`, parsed; undefined when no such file is in the repository. */
  document(path: string, importer: string): unknown {
    const file = this.locate(path, importer);
    if (file === undefined) return undefined;
    if (!this.parsed.has(file)) this.parsed.set(file, parseConfig(file, this.read(file) ?? ""));
    return this.parsed.get(file);
  }

  private locate(path: string, importer: string): string | undefined {
    const relative = posix.normalize(path.replace(/\\/g, "/")).replace(/^(\.\/)+|^\/+/, "");
    if (!CONFIG_FILE.test(relative) || relative.startsWith("..")) return undefined;
    this.byName ??= indexByName(this.files);
    const named = this.byName.get(posix.basename(relative)) ?? [];
    for (let dir = posix.dirname(importer); ; dir = posix.dirname(dir)) {
      const candidate = dir === "." ? relative : `${dir}/${relative}`;
      if (named.includes(candidate)) return candidate;
      if (dir === "." || dir === "/") break;
    }
    const tail = named.filter((file) => file === relative || file.endsWith(`/${relative}`));
    return tail.length === 1 ? tail[0] : undefined;
  }
}

function indexByName(files: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of files) {
    if (!CONFIG_FILE.test(file)) continue;
    const name = posix.basename(file);
    out.set(name, [...(out.get(name) ?? []), file]);
  }
  return out;
}

/** A config file's content as plain values; undefined when it does not parse. */
export function parseConfig(file: string, text: string): unknown {
  const extension = /\.(\w+)$/.exec(file)?.[1]?.toLowerCase();
  try {
    if (extension === "yaml" || extension === "yml") return parseYaml(text);
    if (extension === "json") return parseJsonc(text);
    if (extension === "toml") return parseToml(text);
    return parseIni(text);
  } catch {
    return undefined;
  }
}

/**
 * configparser's format: `[section]` headers, `key = value` or `key: value`
 * lines (keys lower-cased, as configparser does), `#`/`;` comments, and
 * indented continuation lines.
 */
export function parseIni(text: string): Record<string, Record<string, string>> {
  const sections: Record<string, Record<string, string>> = {};
  let section: Record<string, string> | undefined;
  let last: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*([#;].*)?$/.test(line)) continue;
    const header = /^\[([^\]]+)\]\s*$/.exec(line);
    if (header) {
      section = sections[header[1]!] ??= {};
      last = undefined;
    } else if (/^\s/.test(line) && section && last !== undefined) {
      section[last] = `${section[last]}\n${line.trim()}`;
    } else {
      const entry = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(line);
      if (!entry || !section) continue;
      last = entry[1]!.trim().toLowerCase();
      section[last] = entry[2]!.trim();
    }
  }
  return sections;
}
