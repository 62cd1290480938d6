/**
 * How the tool was started, as a command to copy: "Reproduce with" lines,
 * next-step hints and --help print commands this way, so they work where the
 * user is (a bin on PATH, `npx ./x.tgz`, `npx github:…`, `node dist/src/cli.js`)
 * and never name a registry package that may not exist or be someone else's.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, delimiter, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { TOOL } from "./tool-info.js";

export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

interface Invocation {
  /** The script as started (process.argv[1]): symlinks are not resolved, so a bin link keeps its own path. */
  script: string;
  cwd: string;
  path: string;
}

/** The spec npx installed into `<cache>/_npx/<hash>/`: its package.json lists it as the one dependency. */
function npxSpec(script: string, cwd: string): string | undefined {
  const parts = script.split(sep);
  const at = parts.lastIndexOf("_npx");
  if (at === -1 || at + 1 >= parts.length) return undefined;
  try {
    const home = parts.slice(0, at + 2).join(sep);
    const manifest = JSON.parse(readFileSync(join(home, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
    };
    const spec = manifest.dependencies?.[TOOL.name];
    if (!spec) return undefined;
    if (spec.startsWith("file:")) {
      // npx records a relative path from its own directory: shown from the user's.
      const file = resolve(home, spec.slice("file:".length));
      const shown = relative(cwd, file);
      return shown === "" || shown.startsWith("..") || isAbsolute(shown) ? file : `./${shown}`;
    }
    // A registry range npx recorded for `npx comfydeploy-migrate@x`: the name with that version.
    return /^[\^~]?\d/.test(spec) ? `${TOOL.name}@${spec.replace(/^[\^~]/, "")}` : spec;
  } catch {
    return undefined;
  }
}

/** The command prefix that starts this tool again from the working directory. */
export function invocation(given: Partial<Invocation> = {}): string {
  const script = given.script ?? process.argv[1] ?? "";
  const cwd = given.cwd ?? process.cwd();
  const path = given.path ?? process.env.PATH ?? "";
  const spec = npxSpec(script, cwd);
  if (spec) return `npx ${shellQuote(spec)}`;
  if (basename(script) === TOOL.name || basename(script) === `${TOOL.name}.cmd`) {
    const dir = dirname(script);
    if (path.split(delimiter).some((entry) => entry !== "" && entry === dir)) return TOOL.name;
    // A local install (node_modules/.bin): npx runs that copy, never the registry's.
    if (basename(dir) === ".bin" && existsSync(script)) return `npx ${TOOL.name}`;
  }
  const shown = relative(cwd, script);
  return `node ${shellQuote(shown === "" || shown.startsWith("..") ? script : shown)}`;
}

/** The command line that reproduces a run, for reports: quoted for a POSIX shell. */
export function commandLine(argv: readonly string[] = process.argv.slice(2)): string {
  return [invocation(), ...argv.map(shellQuote)].join(" ");
}
