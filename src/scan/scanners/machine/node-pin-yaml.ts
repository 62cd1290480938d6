/**
 * Node pins in YAML files that run commands: CI workflows (`run:`,
 * `script:`, `before_script:`), compose and Kubernetes `command:`/`args:`,
 * and `actions/checkout` of the node's repository with `ref:`.
 * `env:`/`variables:` values feed the shell variables the steps read.
 */
import { member, spanIn, stringOf, type TreeNode, type TreeScalar, walk } from "../../../lang/data/doc-tree.js";
import type { NodeCommandTracker } from "./node-pin-commands.js";
import { ScriptContext } from "../../../lang/shell/interpreter.js";
import { resolveDir } from "../../../lang/shell/args.js";
import { nodeSourceOf } from "./node-source-url.js";

const SCRIPT_KEYS = new Set([
  "run",
  "script",
  "before_script",
  "after_script",
  "command",
  "commands",
  "args",
  "entrypoint",
]);
const VARIABLE_KEYS = new Set(["env", "variables", "environment"]);

/** Feeds every command block of one YAML document to the tracker. */
export function readYamlCommands(root: TreeNode, source: string, tracker: NodeCommandTracker): void {
  // Variables first: a workflow-level `env:` applies to every step below it.
  for (const node of walk(root)) {
    if (node.kind !== "object") continue;
    for (const entry of node.entries) {
      if (!VARIABLE_KEYS.has(entry.key) || entry.value.kind !== "object") continue;
      for (const variable of entry.value.entries) {
        const value = stringOf(variable.value);
        if (value === undefined) continue;
        const where = spanIn(source, variable.value, value);
        tracker.setVariable(variable.key, { value, start: where.start, raw: source.slice(where.start, where.end) });
      }
    }
  }
  for (const node of walk(root)) {
    if (node.kind !== "object") continue;
    checkoutAction(node, source, tracker);
    const workingDirectory = stringOf(member(node, "working-directory"));
    for (const entry of node.entries) {
      if (!SCRIPT_KEYS.has(entry.key)) continue;
      // One shell per block: the lines of a `script:` list share the working directory.
      let cwd = resolveDir(".", workingDirectory ?? ".");
      const scalars = entry.value.kind === "array" ? entry.value.items : [entry.value];
      for (const scalar of scalars) {
        if (scalar.kind !== "scalar" || typeof scalar.value !== "string") continue;
        const context = new ScriptContext(scalar.value, scalarOffsets(source, scalar), cwd);
        tracker.run(context);
        cwd = context.cwd;
      }
    }
  }
}

/** `uses: actions/checkout@...` with `repository: BennyKok/comfyui-deploy`: `ref:` pins it. */
function checkoutAction(node: TreeNode, source: string, tracker: NodeCommandTracker): void {
  if (!/^actions\/checkout@/i.test(stringOf(member(node, "uses")) ?? "")) return;
  const inputs = member(node, "with");
  const repositoryNode = member(inputs, "repository");
  const repository = stringOf(repositoryNode);
  if (!repositoryNode || !repository) return;
  const url = /^[\w.-]+\/[\w.-]+$/.test(repository) ? `https://github.com/${repository}` : repository;
  if (nodeSourceOf(url)?.kind !== "repository") return;
  const refNode = member(inputs, "ref");
  const ref = stringOf(refNode);
  const dir = resolveDir(".", stringOf(member(inputs, "path")) ?? ".");
  const pin = refNode && ref ? { text: ref, ...spanIn(source, refNode, ref) } : undefined;
  tracker.addCheckout(dir, spanIn(source, repositoryNode, repository), pin);
}

/**
 * Maps offsets in a scalar's value to file offsets. Each line of the value
 * is looked up in the file in order (block scalars drop the indentation);
 * a line that cannot be found (folded or escaped text) maps to its scalar's start.
 */
export function scalarOffsets(source: string, scalar: TreeScalar): (offset: number) => number {
  const value = String(scalar.value);
  const lineStarts: Array<{ valueStart: number; fileStart: number | undefined }> = [];
  let cursor = scalar.start;
  let valueStart = 0;
  for (const line of value.split("\n")) {
    let fileStart: number | undefined;
    if (line.trim() !== "") {
      const found = source.indexOf(line, cursor);
      if (found >= 0 && found < scalar.end) {
        fileStart = found;
        cursor = found + line.length;
      }
    }
    lineStarts.push({ valueStart, fileStart });
    valueStart += line.length + 1;
  }
  const fallback =
    scalar.start + (scalar.block ? 0 : /^["']/.test(source.slice(scalar.start, scalar.start + 1)) ? 1 : 0);
  return (offset) => {
    let line = lineStarts[0];
    for (const candidate of lineStarts) {
      if (candidate.valueStart > offset) break;
      line = candidate;
    }
    return line?.fileStart === undefined ? fallback : line.fileStart + (offset - line.valueStart);
  };
}
