/**
 * Node pins in shell commands (scripts, Dockerfile RUN lines, CI steps).
 * The tracker follows the working directory (`cd`, `pushd`, `git -C`,
 * WORKDIR) and remembers which directory holds which clone, so a
 * `git reset --hard` is attributed to the repository it runs in: a second
 * reset that pins ComfyUI itself does not count for the node. Variables set
 * in the file (`NAME=value`, `export`, Dockerfile ARG/ENV, CI `env:`) are
 * expanded; a pin read from one is reported where the value is written.
 */
import { posix } from "node:path";
import { NODE_COMPONENT } from "../../../knowledge/migration.js";
import { decideGitRef, decideRegistryVersion, type NodeRefDecision } from "../../../knowledge/node-ref.js";
import type { NodePinFormat, NodePinSite } from "./node-pin-finding.js";
import { isNodeRepositoryUrl, nodeSourceOf } from "./node-source-url.js";
import { readShell, type ShellWord } from "../../../lang/shell/words.js";
import { defaultCloneDir, lastOption, parseArgs, resolveDir, type Span, spanner, subWord } from "./shell-args.js";

/** A variable's value and the file offsets where it is written. */
export interface VariableValue {
  value: string;
  start: number;
  /** The file text at [start, start + raw.length), for locating parts of the value. */
  raw: string;
}

/** A script being read: its text, where it sits in the file, and the working directory. */
export class ScriptContext {
  readonly dirStack: string[] = [];

  constructor(
    readonly text: string,
    /** Maps an offset in `text` to an offset in the file. */
    readonly toSource: (offset: number) => number,
    public cwd: string,
  ) {}
}

/** A word after expansion, and how to find a part of it in the file. */
interface Expanded {
  value: string;
  /** Set when the word is a variable the file does not define. */
  unresolved?: string;
  span(part?: string): Span;
}

interface PinRef extends Span {
  text: string;
  unresolved?: string;
  format: NodePinFormat;
}

interface NodeCheckout {
  /** Where the clone names the repository (reported when nothing pins it). */
  origin?: Span;
  format: NodePinFormat;
  pin?: PinRef;
}

const ASSIGNMENT = /^[A-Za-z_]\w*=/;
const WRAPPERS = new Set(["sudo", "env", "time", "exec", "nohup", "command", "builtin", "xargs"]);
const WRAPPER_OPTIONS_WITH_ARG = new Set(["-u", "-g", "-C", "-h", "-p", "-U", "-E"]);
const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ash", "ksh"]);
const RUN_FLAG = /^--(mount|network|security|device)=/;
const GIT_GLOBAL_WITH_ARG = new Set(["-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"]);
const CLONE_WITH_ARG = new Set([
  "-b",
  "--branch",
  "--revision",
  "-o",
  "--origin",
  "-u",
  "--upload-pack",
  "--reference",
  "--reference-if-able",
  "--separate-git-dir",
  "--depth",
  "--shallow-since",
  "--shallow-exclude",
  "-c",
  "--config",
  "-j",
  "--jobs",
  "--template",
  "--filter",
  "--server-option",
  "--bundle-uri",
]);
const CHECKOUT_WITH_ARG = new Set(["-b", "-B", "--orphan", "--conflict", "--pathspec-from-file"]);
const SWITCH_WITH_ARG = new Set(["-c", "-C", "--create", "--force-create", "--orphan", "--conflict"]);
const FETCH_WITH_ARG = new Set(["--depth", "--deepen", "--shallow-since", "--shallow-exclude", "-j", "--jobs", "--upload-pack", "--refmap", "-o", "--server-option", "--negotiation-tip", "--filter"]);
const SUBMODULE_ADD_WITH_ARG = new Set(["-b", "--branch", "--name", "--reference", "--depth"]);
const COMFY_GLOBAL_WITH_ARG = new Set(["--workspace"]);
const COMFY_INSTALL_WITH_ARG = new Set(["--mode", "--channel"]);
const PIP_PROGRAMS = new Set(["pip", "pip3", "uv", "pipx"]);

/** `$NAME`, `${NAME}`, `${NAME:-default}`, `${{ env.NAME }}` as a whole word. */
const WHOLE_VARIABLE = /^\$(?:\{\{\s*([A-Za-z_]\w*)\.([A-Za-z_][\w-]*)\s*\}\}|\{([A-Za-z_]\w*)(?::?[-=]([^}]*))?\}|([A-Za-z_]\w*))$/;
const ANY_VARIABLE = /\$(?:\{\{\s*([A-Za-z_]\w*)\.([A-Za-z_][\w-]*)\s*\}\}|\{([A-Za-z_]\w*)(?::?[-=]([^}]*))?\}|([A-Za-z_]\w*))/g;

/** The node's directory name when cloned without a target directory. */
const NODE_DIR_NAME = NODE_COMPONENT.repository.split("/")[1]!.toLowerCase();

export class NodeCommandTracker {
  private readonly repos = new Map<string, { checkout?: NodeCheckout }>();
  private readonly fetched = new Map<string, PinRef>();
  private readonly finished: NodeCheckout[] = [];
  private readonly direct: NodePinSite[] = [];
  private readonly variables = new Map<string, VariableValue>();

  constructor(
    /** The format of git pins in this file (`comfy node install` pins are always "cli"). */
    private readonly format: "dockerfile" | "shell" | "yaml",
  ) {}

  setVariable(name: string, value: VariableValue): void {
    this.variables.set(name, value);
  }

  /** Reads every command of a script; the context's cwd follows `cd`. */
  run(context: ScriptContext): void {
    for (const command of readShell(context.text)) this.command(command.words, context);
  }

  /** A `NAME=value` word: the value is written right after the `=`. */
  assign(word: ShellWord, context: ScriptContext): void {
    const eq = word.value.indexOf("=");
    const name = word.value.slice(0, eq);
    const rawWord = context.text.slice(word.start, word.end);
    const rawEq = rawWord.indexOf("=");
    let rawValue = rawWord.slice(rawEq + 1);
    let skip = 0;
    if (/^(["']).*\1$/s.test(rawValue) && rawValue.length >= 2) {
      rawValue = rawValue.slice(1, -1);
      skip = 1;
    }
    const value = this.substitute(word.value.slice(eq + 1)).value;
    this.variables.set(name, { value, start: context.toSource(word.start + rawEq + 1 + skip), raw: rawValue });
  }

  /** Expands variables the file defines. */
  expand(word: ShellWord, context: ScriptContext): Expanded {
    const raw = context.text.slice(word.start, word.end);
    const here = spanner(raw, context.toSource(word.start));
    const whole = WHOLE_VARIABLE.exec(word.value);
    if (whole) {
      const [, scope, scopedName, braced, fallback, bare] = whole;
      const name = scope ? (scope === "env" ? scopedName : undefined) : (braced ?? bare);
      const definition = name === undefined ? undefined : this.variables.get(name);
      if (definition) return { value: definition.value, span: spanner(definition.raw, definition.start) };
      if (fallback) return { value: fallback, span: here };
      return { value: word.value, unresolved: word.value, span: here };
    }
    if (!word.value.includes("$")) return { value: word.value, span: here };
    const { value, unresolved } = this.substitute(word.value);
    return { value, span: here, ...(unresolved ? { unresolved: word.value } : {}) };
  }

  /** The node cloned or added outside a shell command (Docker ADD of a git URL, a checkout action). */
  addCheckout(dir: string, origin: Span, pin?: Omit<PinRef, "format">): void {
    this.startCheckout(dir, { origin, format: this.format, ...(pin ? { pin: { ...pin, format: this.format } } : {}) });
  }

  /** A URL that downloads or installs one ref of the node (archive, `.git#ref`, pip `git+...@ref`). */
  addSourceUrl(word: Expanded, options: { installer?: boolean } = {}): "archive" | "repository" | undefined {
    const source = nodeSourceOf(word.value);
    if (!source) return undefined;
    if (source.ref) {
      this.direct.push(this.site(decideGitRef(source.ref.text), word.span(source.ref.text), this.format));
    } else if (options.installer) {
      this.direct.push(this.site(decideGitRef(undefined), word.span(), this.format));
    }
    return source.kind;
  }

  /** Every pin found, once the whole file has been read. */
  sites(): NodePinSite[] {
    const checkouts = [...this.finished, ...[...this.repos.values()].flatMap((r) => (r.checkout ? [r.checkout] : []))];
    const out: NodePinSite[] = [...this.direct];
    for (const checkout of checkouts) {
      const { pin } = checkout;
      if (pin?.unresolved) {
        const decision: NodeRefDecision = { ref: pin.unresolved, refKind: "none", verdict: "unknown" };
        out.push({ ...this.site(decision, pin, pin.format), note: "unresolved-variable" });
      } else if (pin) out.push(this.site(decideGitRef(pin.text), pin, pin.format));
      else if (checkout.origin) out.push(this.site(decideGitRef(undefined), checkout.origin, checkout.format));
    }
    const seen = new Set<string>();
    return out.filter((site) => {
      const key = `${site.start}:${site.end}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  private command(all: ShellWord[], context: ScriptContext): void {
    let i = 0;
    while (i < all.length && RUN_FLAG.test(all[i]!.value)) i++;
    const assignments: ShellWord[] = [];
    while (i < all.length && ASSIGNMENT.test(all[i]!.value)) assignments.push(all[i++]!);
    if (i === all.length) {
      for (const word of assignments) this.assign(word, context);
      return;
    }
    while (i < all.length && WRAPPERS.has(all[i]!.value)) {
      i++;
      while (i < all.length && (all[i]!.value.startsWith("-") || ASSIGNMENT.test(all[i]!.value))) {
        i += WRAPPER_OPTIONS_WITH_ARG.has(all[i]!.value) ? 2 : 1;
      }
    }
    const first = all[i];
    if (!first) return;
    const program = posix.basename(first.value);
    const args = all.slice(i + 1);
    switch (program) {
      case "export":
      case "declare":
      case "local":
      case "readonly":
      case "typeset":
        for (const word of args) if (ASSIGNMENT.test(word.value)) this.assign(word, context);
        return;
      case "cd":
      case "pushd": {
        const target = args.find((w) => !w.value.startsWith("-") || w.value === "-");
        if (target?.value === "-") return;
        if (program === "pushd") context.dirStack.push(context.cwd);
        context.cwd = target ? resolveDir(context.cwd, this.expand(target, context).value) : "~";
        return;
      }
      case "popd":
        context.cwd = context.dirStack.pop() ?? context.cwd;
        return;
      case "git":
        this.git(args, context);
        return;
      case "comfy":
      case "comfy-cli":
        this.comfy(args, context);
        return;
    }
    if (SHELLS.has(program)) {
      this.nestedShell(args, context);
      return;
    }
    const installer = PIP_PROGRAMS.has(program) || args.some((w) => w.value === "pip");
    for (const word of args) this.addSourceUrl(this.expand(word, context), { installer: installer && /^git\+/i.test(word.value) });
  }

  /** `bash -c "<script>"`: read the script in a subshell (its `cd` does not leak). */
  private nestedShell(args: ShellWord[], context: ScriptContext): void {
    const flag = args.findIndex((w) => /^-[a-z]*c[a-z]*$/.test(w.value));
    const script = flag >= 0 ? args[flag + 1] : undefined;
    if (!script) return;
    const raw = context.text.slice(script.start, script.end);
    const base = script.start + (/^["']/.test(raw) ? 1 : 0);
    this.run(new ScriptContext(script.value, (offset) => context.toSource(base + offset), context.cwd));
  }

  private git(args: ShellWord[], context: ScriptContext): void {
    let dir = context.cwd;
    let i = 0;
    while (i < args.length) {
      const value = args[i]!.value;
      if (value === "-C" && args[i + 1]) {
        dir = resolveDir(dir, this.expand(args[i + 1]!, context).value);
        i += 2;
      } else if (GIT_GLOBAL_WITH_ARG.has(value)) i += 2;
      else if (value.startsWith("-")) i++;
      else break;
    }
    const subcommand = args[i]?.value;
    const rest = args.slice(i + 1);
    switch (subcommand) {
      case "clone":
        this.gitClone(rest, dir, context);
        return;
      case "submodule":
        if (rest[0]?.value === "add") this.gitSubmoduleAdd(rest.slice(1), dir, context);
        return;
      case "remote":
        if (rest[0]?.value === "add") this.gitRemoteAdd(rest.slice(1), dir, context);
        return;
      case "fetch":
        this.gitFetch(rest, dir, context);
        return;
      case "reset":
      case "checkout":
      case "switch":
        this.gitPin(subcommand, rest, dir, context);
        return;
    }
  }

  private gitClone(args: ShellWord[], dir: string, context: ScriptContext): void {
    const parsed = parseArgs(args, context.text, CLONE_WITH_ARG);
    const [urlWord, dirWord] = parsed.positional;
    if (!urlWord) return;
    const url = this.expand(urlWord, context);
    const target = resolveDir(dir, dirWord ? this.expand(dirWord, context).value : defaultCloneDir(url.value));
    if (!isNodeRepositoryUrl(url.value)) {
      this.startOther(target);
      return;
    }
    const branch = lastOption(parsed, ["-b", "--branch", "--revision"]);
    this.startCheckout(target, {
      origin: url.span(),
      format: this.format,
      ...(branch ? { pin: this.pinRef(branch, context) } : {}),
    });
  }

  private gitSubmoduleAdd(args: ShellWord[], dir: string, context: ScriptContext): void {
    const parsed = parseArgs(args, context.text, SUBMODULE_ADD_WITH_ARG);
    const [urlWord, pathWord] = parsed.positional;
    if (!urlWord) return;
    const url = this.expand(urlWord, context);
    const target = resolveDir(dir, pathWord ? this.expand(pathWord, context).value : defaultCloneDir(url.value));
    if (!isNodeRepositoryUrl(url.value)) {
      this.startOther(target);
      return;
    }
    const branch = lastOption(parsed, ["-b", "--branch"]);
    this.startCheckout(target, { origin: url.span(), format: this.format, ...(branch ? { pin: this.pinRef(branch, context) } : {}) });
  }

  /** `git init && git remote add origin <node url> && git fetch origin <sha> && git checkout FETCH_HEAD`. */
  private gitRemoteAdd(args: ShellWord[], dir: string, context: ScriptContext): void {
    const parsed = parseArgs(args, context.text, new Set(["-t", "-m", "--mirror"]));
    const urlWord = parsed.positional[1];
    if (!urlWord) return;
    const url = this.expand(urlWord, context);
    if (isNodeRepositoryUrl(url.value) && !this.repos.get(dir)?.checkout) {
      this.startCheckout(dir, { origin: url.span(), format: this.format });
    }
  }

  private gitFetch(args: ShellWord[], dir: string, context: ScriptContext): void {
    const parsed = parseArgs(args, context.text, FETCH_WITH_ARG);
    const refspec = parsed.positional.length > 1 ? parsed.positional[parsed.positional.length - 1] : undefined;
    if (!refspec) return;
    const source = refspec.value.replace(/^\+/, "").split(":")[0]!;
    if (source === "") return;
    this.fetched.set(dir, this.pinRef(subWord(refspec, context.text, source), context));
  }

  private gitPin(subcommand: "reset" | "checkout" | "switch", args: ShellWord[], dir: string, context: ScriptContext): void {
    const withArg = subcommand === "checkout" ? CHECKOUT_WITH_ARG : subcommand === "switch" ? SWITCH_WITH_ARG : new Set<string>();
    const parsed = parseArgs(args, context.text, withArg);
    // `git checkout <ref> -- <paths>` and `git reset <ref> <paths>` restore files; they move no HEAD.
    if (parsed.afterDashDash.length > 0 || parsed.positional.length !== 1) return;
    const refWord = parsed.positional[0]!;
    if (refWord.value === ".") return;
    let pin = this.pinRef(refWord, context);
    if (/^FETCH_HEAD$/i.test(pin.text)) pin = this.fetched.get(dir) ?? pin;
    const repo = this.repos.get(dir);
    if (repo) {
      if (repo.checkout) repo.checkout.pin = pin;
      return;
    }
    // No clone seen here: the directory's name says which repository it is. An
    // unpinned clone under the same name was most likely reached by another spelling of the path.
    if (posix.basename(dir).toLowerCase() !== NODE_DIR_NAME) return;
    const unpinned = [...this.repos.entries()]
      .reverse()
      .find(([path, entry]) => entry.checkout && !entry.checkout.pin && posix.basename(path).toLowerCase() === NODE_DIR_NAME);
    if (unpinned) unpinned[1].checkout!.pin = pin;
    else this.repos.set(dir, { checkout: { format: this.format, pin } });
  }

  private comfy(args: ShellWord[], context: ScriptContext): void {
    let i = 0;
    while (i < args.length && args[i]!.value.startsWith("-")) i += COMFY_GLOBAL_WITH_ARG.has(args[i]!.value) ? 2 : 1;
    if (args[i]?.value !== "node") return;
    i++;
    while (i < args.length && args[i]!.value.startsWith("-")) i++;
    if (!["install", "reinstall", "registry-install"].includes(args[i]?.value ?? "")) return;
    const parsed = parseArgs(args.slice(i + 1), context.text, COMFY_INSTALL_WITH_ARG);
    for (const word of parsed.positional) {
      const expanded = this.expand(word, context);
      const match = new RegExp(`^${NODE_COMPONENT.registryName}(?:@(.*))?$`, "i").exec(expanded.value);
      if (!match) continue;
      const version = match[1];
      this.direct.push(this.site(decideRegistryVersion(version), version ? expanded.span(version) : expanded.span(), "cli"));
    }
  }

  private pinRef(word: ShellWord, context: ScriptContext): PinRef {
    const expanded = this.expand(word, context);
    const span = expanded.unresolved ? expanded.span() : expanded.span(expanded.value);
    return { text: expanded.value, ...span, format: this.format, ...(expanded.unresolved ? { unresolved: expanded.unresolved } : {}) };
  }

  private startCheckout(dir: string, checkout: NodeCheckout): void {
    const previous = this.repos.get(dir)?.checkout;
    if (previous) this.finished.push(previous);
    this.repos.set(dir, { checkout });
  }

  /** Another repository now lives in `dir`: later resets there are not the node's. */
  private startOther(dir: string): void {
    const previous = this.repos.get(dir)?.checkout;
    if (previous) this.finished.push(previous);
    this.repos.set(dir, {});
  }

  private site(decision: NodeRefDecision, span: Span, format: NodePinFormat): NodePinSite {
    return { decision, format, start: span.start, end: span.end };
  }

  private substitute(text: string): { value: string; unresolved: boolean } {
    let unresolved = false;
    const value = text.replace(ANY_VARIABLE, (match, scope?: string, scopedName?: string, braced?: string, fallback?: string, bare?: string) => {
      const name = scope ? (scope === "env" ? scopedName : undefined) : (braced ?? bare);
      const definition = name === undefined ? undefined : this.variables.get(name);
      if (definition) return definition.value;
      if (fallback) return fallback;
      unresolved = true;
      return match;
    });
    return { value, unresolved };
  }
}
