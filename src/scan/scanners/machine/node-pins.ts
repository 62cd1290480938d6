/**
 * `node-component-pin`: where client repositories pin the ComfyUI node
 * BennyKok/comfyui-deploy, and whether the pin is at v2.1.0 or later.
 * Dockerfiles, shell scripts, YAML (CI steps, compose, Kubernetes, YAML
 * snapshots), JSON (machine and Manager snapshots, workflow steps, install
 * lists), `.gitmodules` with its gitlink, and vendored pyproject.toml files.
 * Files that never name the node are not parsed.
 */
import { parseTree, printParseErrorCode, type ParseError } from "jsonc-parser";
import { posix } from "node:path";
import { parseAllDocuments } from "yaml";
import type { Finding } from "../../../core/finding.js";
import { FindingSink } from "../../scanner-helpers.js";
import type { FileScanInput, FileScanner } from "../../scanner.js";
import { fromJson, fromYaml } from "../../../lang/data/doc-tree.js";
import { isDockerfile, readDockerfile } from "../../../lang/shell/dockerfile.js";
import { NodeCommandTracker } from "./node-pin-commands.js";
import { ScriptContext } from "../../../lang/shell/interpreter.js";
import { resolveDir } from "../../../lang/shell/args.js";
import { documentPins } from "./node-pin-documents.js";
import { type NodePinSite, reportNodePin } from "./node-pin-finding.js";
import { isPyproject, pyprojectPins } from "./node-pin-pyproject.js";
import { submodulePins } from "./node-pin-submodules.js";
import { readYamlCommands } from "./node-pin-yaml.js";
import { mentionsNode, nodeSourceOf } from "./node-source-url.js";
import { readShell } from "../../../lang/shell/words.js";

type PinFileKind = "dockerfile" | "shell" | "maybe-shell" | "yaml" | "json" | "gitmodules" | "pyproject";

/** Manifests and lockfiles other scanners own (and report as unreadable). */
const OTHER_OWNERS = new Set(["package.json", "package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "pnpm-workspace.yaml", "composer.json"]);

export const nodePinScanner: FileScanner = {
  id: "node-pins",
  matches: (file) => pinFileKind(file) !== undefined,
  scan: (input) => scanNodePins(input),
};

export function pinFileKind(file: string): PinFileKind | undefined {
  const base = posix.basename(file).toLowerCase();
  if (OTHER_OWNERS.has(base)) return undefined;
  if (isDockerfile(file)) return "dockerfile";
  if (base === ".gitmodules") return "gitmodules";
  if (isPyproject(file)) return "pyproject";
  const ext = posix.extname(base);
  if ([".sh", ".bash", ".zsh", ".ksh"].includes(ext)) return "shell";
  if (ext === ".yml" || ext === ".yaml") return "yaml";
  if (ext === ".json") return "json";
  // Scripts without an extension are recognised by their shebang.
  if (!base.includes(".")) return "maybe-shell";
  return undefined;
}

export function scanNodePins(input: Pick<FileScanInput, "file" | "text" | "repo">): Finding[] {
  const { file, text } = input;
  const kind = pinFileKind(file);
  if (!kind || !mentionsNode(text)) return [];
  const sink = new FindingSink(file, text);
  for (const site of sitesOf(kind, input, sink)) reportNodePin(sink, site);
  return sink.findings;
}

function sitesOf(kind: PinFileKind, { file, text, repo }: Pick<FileScanInput, "file" | "text" | "repo">, sink: FindingSink): NodePinSite[] {
  switch (kind) {
    case "dockerfile":
      return dockerfilePins(text);
    case "shell":
      return shellPins(text);
    case "maybe-shell":
      return /^#!.*\b(ba|da|z|k|a)?sh\b/.test(text) ? shellPins(text) : [];
    case "yaml":
      return yamlPins(text, sink);
    case "json":
      return jsonPins(text, sink);
    case "gitmodules":
      return submodulePins(text, file, repo.root);
    case "pyproject":
      try {
        return pyprojectPins(text);
      } catch {
        // Syntax errors in pyproject.toml are reported by the Python dependency scanner.
        return [];
      }
  }
}

function shellPins(text: string): NodePinSite[] {
  const tracker = new NodeCommandTracker("shell");
  tracker.run(new ScriptContext(text, (offset) => offset, "."));
  return tracker.sites();
}

/**
 * RUN lines start in the WORKDIR (a `cd` does not outlive its RUN); clones,
 * ARG and ENV values live for the whole file. `ADD <archive or git URL>`
 * downloads the node directly.
 */
function dockerfilePins(text: string): NodePinSite[] {
  const tracker = new NodeCommandTracker("dockerfile");
  let workdir = "/";
  for (const instruction of readDockerfile(text)) {
    const toSource = (offset: number): number => instruction.argsStart + offset;
    const context = new ScriptContext(instruction.args, toSource, workdir);
    switch (instruction.keyword) {
      case "FROM":
        workdir = "/";
        break;
      case "WORKDIR": {
        const [word] = readShell(instruction.args)[0]?.words ?? [];
        if (word) workdir = resolveDir(workdir, tracker.expand(word, context).value);
        break;
      }
      case "ARG":
      case "ENV":
        dockerVariables(instruction.keyword, context, tracker);
        break;
      case "RUN":
        tracker.run(context);
        for (const heredoc of instruction.heredocs) {
          tracker.run(new ScriptContext(heredoc.text, (offset) => heredoc.start + offset, workdir));
        }
        break;
      case "ADD": {
        const words = (readShell(instruction.args)[0]?.words ?? []).filter((w) => !w.value.startsWith("--"));
        const destination = words.length > 1 ? words[words.length - 1]!.value : ".";
        for (const word of words.slice(0, -1)) {
          const url = tracker.expand(word, context);
          const source = nodeSourceOf(url.value);
          if (source?.kind === "repository") {
            // `ADD <repo>.git#<ref> <dir>` is a checkout of that ref in <dir>.
            const pin = source.ref ? { text: source.ref.text, ...url.span(source.ref.text) } : undefined;
            tracker.addCheckout(resolveDir(workdir, destination), url.span(), pin);
          } else tracker.addSourceUrl(url);
        }
        break;
      }
    }
  }
  return tracker.sites();
}

/** `ARG NAME=value`, `ENV NAME=value ...` and the legacy `ENV NAME value`. */
function dockerVariables(keyword: string, context: ScriptContext, tracker: NodeCommandTracker): void {
  const words = readShell(context.text)[0]?.words ?? [];
  if (keyword === "ENV" && words.length >= 2 && !words[0]!.value.includes("=")) {
    const [name, first] = words as [(typeof words)[number], (typeof words)[number]];
    const last = words[words.length - 1]!;
    const start = context.toSource(first.start);
    tracker.setVariable(name.value, {
      value: words.slice(1).map((w) => w.value).join(" "),
      start,
      raw: context.text.slice(first.start, last.end),
    });
    return;
  }
  for (const word of words) if (/^[A-Za-z_]\w*=/.test(word.value)) tracker.assign(word, context);
}

function yamlPins(text: string, sink: FindingSink): NodePinSite[] {
  const tracker = new NodeCommandTracker("yaml");
  const sites: NodePinSite[] = [];
  let reported = false;
  for (const document of parseAllDocuments(text)) {
    const error = document.errors[0];
    if (error) {
      if (!reported) sink.unreadable(error.message, error.linePos?.[0].line ?? 1);
      reported = true;
      continue;
    }
    const root = fromYaml(document.contents);
    if (!root) continue;
    sites.push(...documentPins(root, text));
    readYamlCommands(root, text, tracker);
  }
  return [...sites, ...tracker.sites()];
}

function jsonPins(text: string, sink: FindingSink): NodePinSite[] {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first || !root) {
    const line = first ? sink.lines.position(first.offset).line : 1;
    sink.unreadable(first ? `${printParseErrorCode(first.error)} at line ${line}` : "empty JSON document", line);
    return [];
  }
  return documentPins(fromJson(root), text);
}
