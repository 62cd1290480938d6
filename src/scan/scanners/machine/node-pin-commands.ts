/**
 * Node pins in shell commands (scripts, Dockerfile RUN lines, CI steps).
 * The shell interpreter (src/lang/shell/interpreter.ts) follows the working
 * directory and the variables; the tracker reads the git, comfy and install
 * commands it hands over and remembers which directory holds which clone (`git -C`
 * included), so a `git reset --hard` is attributed to the repository it runs
 * in: a second reset that pins ComfyUI itself does not count for the node. A
 * pin read from a variable is reported where the value is written.
 */
import { posix } from "node:path";
import { NODE_COMPONENT } from "../../../knowledge/migration.js";
import { decideGitRef, decideRegistryVersion, type NodeRefDecision } from "../../../knowledge/node-ref.js";
import type { NodePinFormat, NodePinSite } from "./node-pin-finding.js";
import { isNodeRepositoryUrl, nodeSourceOf } from "./node-source-url.js";
import type { ShellWord } from "../../../lang/shell/words.js";
import { defaultCloneDir, lastOption, parseArgs, resolveDir, type Span, subWord } from "../../../lang/shell/args.js";
import {
  type Expanded,
  type ScriptContext,
  ShellInterpreter,
  type VariableValue,
} from "../../../lang/shell/interpreter.js";

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
const FETCH_WITH_ARG = new Set([
  "--depth",
  "--deepen",
  "--shallow-since",
  "--shallow-exclude",
  "-j",
  "--jobs",
  "--upload-pack",
  "--refmap",
  "-o",
  "--server-option",
  "--negotiation-tip",
  "--filter",
]);
const SUBMODULE_ADD_WITH_ARG = new Set(["-b", "--branch", "--name", "--reference", "--depth"]);
const COMFY_GLOBAL_WITH_ARG = new Set(["--workspace"]);
const COMFY_INSTALL_WITH_ARG = new Set(["--mode", "--channel", "--version"]);
const PIP_PROGRAMS = new Set(["pip", "pip3", "uv", "pipx"]);

/** The node's directory name when cloned without a target directory. */
const NODE_DIR_NAME = NODE_COMPONENT.repository.split("/")[1]!.toLowerCase();

export class NodeCommandTracker {
  private readonly repos = new Map<string, { checkout?: NodeCheckout }>();
  private readonly fetched = new Map<string, PinRef>();
  private readonly finished: NodeCheckout[] = [];
  private readonly direct: NodePinSite[] = [];
  private readonly shell = new ShellInterpreter((program, args, context) => this.command(program, args, context));

  constructor(
    /** The format of git pins in this file (`comfy node install` pins are always "cli"). */
    private readonly format: "dockerfile" | "shell" | "yaml",
  ) {}

  setVariable(name: string, value: VariableValue): void {
    this.shell.setVariable(name, value);
  }

  /** Reads every command of a script; the context's cwd follows `cd`. */
  run(context: ScriptContext): void {
    this.shell.run(context);
  }

  assign(word: ShellWord, context: ScriptContext): void {
    this.shell.assign(word, context);
  }

  expand(word: ShellWord, context: ScriptContext): Expanded {
    return this.shell.expand(word, context);
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

  /**
   * Ends one of several separate scripts a file writes (the strings code
   * generates): the pins made so far are kept, and a later script that pins
   * the same clone again is one more pin, not a correction of this one.
   */
  seal(): void {
    for (const [dir, repo] of this.repos) {
      if (!repo.checkout?.pin) continue;
      this.finished.push(repo.checkout);
      this.repos.set(dir, { checkout: { format: repo.checkout.format } });
    }
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

  private command(program: string, args: ShellWord[], context: ScriptContext): void {
    switch (program) {
      case "git":
        this.git(args, context);
        return;
      case "comfy":
      case "comfy-cli":
        this.comfy(args, context);
        return;
    }
    const installer = PIP_PROGRAMS.has(program) || args.some((w) => w.value === "pip");
    for (const word of args)
      this.addSourceUrl(this.expand(word, context), { installer: installer && /^git\+/i.test(word.value) });
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
    this.startCheckout(target, {
      origin: url.span(),
      format: this.format,
      ...(branch ? { pin: this.pinRef(branch, context) } : {}),
    });
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

  private gitPin(
    subcommand: "reset" | "checkout" | "switch",
    args: ShellWord[],
    dir: string,
    context: ScriptContext,
  ): void {
    const withArg =
      subcommand === "checkout" ? CHECKOUT_WITH_ARG : subcommand === "switch" ? SWITCH_WITH_ARG : new Set<string>();
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
      .find(
        ([path, entry]) =>
          entry.checkout && !entry.checkout.pin && posix.basename(path).toLowerCase() === NODE_DIR_NAME,
      );
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
    // `comfy node registry-install comfyui-deploy --version 1.1.0`
    const versionOption = lastOption(parsed, ["--version"]);
    for (const word of parsed.positional) {
      const expanded = this.expand(word, context);
      const match = new RegExp(`^${NODE_COMPONENT.registryName}(?:@(.*))?$`, "i").exec(expanded.value);
      if (!match) {
        // `comfy node install bennykok/comfyui-deploy@<sha>` or a git URL with a ref.
        const ref = nodeSourceOf(expanded.value)?.ref;
        if (ref) this.direct.push(this.site(decideGitRef(ref.text), expanded.span(ref.text), "cli"));
        continue;
      }
      const version = match[1];
      if (version === undefined && versionOption) {
        const option = this.expand(versionOption, context);
        this.direct.push(this.site(decideRegistryVersion(option.value), option.span(option.value), "cli"));
        continue;
      }
      this.direct.push(
        this.site(decideRegistryVersion(version), version ? expanded.span(version) : expanded.span(), "cli"),
      );
    }
  }

  private pinRef(word: ShellWord, context: ScriptContext): PinRef {
    const expanded = this.expand(word, context);
    const span = expanded.unresolved ? expanded.span() : expanded.span(expanded.value);
    return {
      text: expanded.value,
      ...span,
      format: this.format,
      ...(expanded.unresolved ? { unresolved: expanded.unresolved } : {}),
    };
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
}
