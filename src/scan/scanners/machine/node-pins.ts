/**
 * `node-component-pin`: where client repositories pin the ComfyUI node
 * BennyKok/comfyui-deploy, and whether the pin is at v2.1.0 or later.
 * Dockerfiles, shell scripts, YAML (CI steps, compose, Kubernetes, YAML
 * snapshots), JSON (machine and Manager snapshots, workflow steps, install
 * lists), Makefile recipes, Markdown code blocks, `.gitmodules` with its gitlink, vendored pyproject.toml files,
 * and Python or JS/TS code that writes install commands or Dockerfiles.
 * Files that never name the node are not parsed.
 */
import { parseTree, printParseErrorCode, type ParseError } from "jsonc-parser";
import { parseAllDocuments } from "yaml";
import type { Finding } from "../../../core/finding.js";
import { FindingSink } from "../../scanner-helpers.js";
import type { FileScanInput, FileScanner } from "../../scanner.js";
import { fromJson, fromYaml } from "../../../lang/data/doc-tree.js";
import { pinFileKind, type PinFileKind } from "../../../lang/node-pin/files.js";
import { NodeCommandTracker } from "./node-pin-commands.js";
import { ScriptContext } from "../../../lang/shell/interpreter.js";
import { documentPins } from "./node-pin-documents.js";
import { type NodePinSite, reportNodePin } from "./node-pin-finding.js";
import { pyprojectPins } from "./node-pin-pyproject.js";
import { submodulePins } from "./node-pin-submodules.js";
import { readYamlCommands } from "./node-pin-yaml.js";
import { mentionsNode } from "./node-source-url.js";
import { dockerfilePins } from "./node-pin-dockerfile.js";
import { pythonCodePins } from "./node-pin-python.js";
import { listPins } from "./node-pin-lists.js";
import { makefilePins } from "./node-pin-makefile.js";
import { jsCodePins } from "./node-pin-js.js";
import { markdownPins } from "./node-pin-markdown.js";

export const nodePinScanner: FileScanner = {
  id: "node-pins",
  matches: (file) => pinFileKind(file) !== undefined,
  readsJsSource: (file, text) => pinFileKind(file) === "js" && mentionsNode(text),
  scan: (input) => scanNodePins(input),
};

export function scanNodePins(input: Pick<FileScanInput, "file" | "text" | "repo">): Finding[] {
  const { file, text } = input;
  const kind = pinFileKind(file);
  if (!kind || !mentionsNode(text)) return [];
  const sink = new FindingSink(file, text);
  // One pin, one finding, whichever shapes found it.
  const seen = new Set<string>();
  for (const site of sitesOf(kind, input, sink)) {
    const key = `${site.start}:${site.end}`;
    if (seen.has(key)) continue;
    seen.add(key);
    reportNodePin(sink, site);
  }
  return sink.findings;
}

function sitesOf(
  kind: PinFileKind,
  { file, text, repo }: Pick<FileScanInput, "file" | "text" | "repo">,
  sink: FindingSink,
): NodePinSite[] {
  switch (kind) {
    // `owner/repo@ref` may stand in any word of a script (an array of nodes to install), not only in a list file.
    case "dockerfile":
      return [...dockerfilePins(text), ...listPins(text)];
    case "shell":
      return [...shellPins(text), ...listPins(text)];
    case "maybe-shell":
      return /^#!.*\b(ba|da|z|k|a)?sh\b/.test(text) ? [...shellPins(text), ...listPins(text)] : [];
    case "yaml":
      return yamlPins(text, sink);
    case "json":
      return jsonPins(text, sink);
    case "python":
      return pythonCodePins(text);
    case "list":
      return listPins(text);
    case "js":
      return jsCodePins(file, text);
    case "makefile":
      return [...makefilePins(text), ...listPins(text)];
    case "markdown":
      return markdownPins(text);
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
