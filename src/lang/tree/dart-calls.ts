/**
 * Dart's calls, which its grammar writes flat: `Uri.parse(x)` is the name
 * `Uri`, the selector `.parse` and the selector `(x)` side by side in
 * whatever node holds the expression. The resolver stands for a flat
 * expression by its last selector (as for member reads), so a call is the
 * selector that holds its arguments; this module reads its parts.
 */
import type { Node } from "web-tree-sitter";
import { lastName, NAME_NODES, nameText } from "./syntax.js";

export interface DartCall {
  /** The name called: `parse` in `Uri.parse(x)`, `_uri` in `_uri('/run')`. */
  name: Node;
  /** What it is called on: the name or selector before the called name, if any. */
  receiver: Node | undefined;
  /** Positional arguments. */
  args: Node[];
  /** Named arguments by label (`defaultValue:`, `queryParameters:`). */
  named: ReadonlyMap<string, Node>;
}

/** The call a selector makes, when it holds arguments after a name (`.parse(…)`, `_uri(…)`). */
export function dartCallOf(selector: Node): DartCall | undefined {
  if (selector.type !== "selector") return undefined;
  const part = selector.namedChild(0);
  if (part?.type !== "argument_part") return undefined;
  const before = selector.previousNamedSibling;
  if (!before) return undefined;
  let name: Node | undefined;
  let receiver: Node | undefined;
  if (NAME_NODES.has(before.type)) name = before;
  else if (before.type === "selector" && before.namedChild(0)?.type === "unconditional_assignable_selector") {
    name = lastName(before);
    receiver = before.previousNamedSibling ?? undefined;
  }
  if (!name) return undefined;
  const args: Node[] = [];
  const named = new Map<string, Node>();
  const list = part.namedChildren.find((c) => c?.type === "arguments");
  for (const child of list?.namedChildren ?? []) {
    if (!child) continue;
    if (child.type === "named_argument") {
      const label = child.namedChildren.find((c) => c?.type === "label");
      const value = child.namedChildren.at(-1);
      const key = label && NAME_NODES.has(label.namedChild(0)?.type ?? "") ? nameText(label.namedChild(0)!) : undefined;
      if (key && value && value !== label) named.set(key, value);
    } else if (child.type === "argument") {
      const value = child.namedChildren.at(-1);
      if (value) args.push(value);
    }
  }
  return { name, receiver, args, named };
}

/**
 * Dart's reads with a default (`String.fromEnvironment('X', defaultValue: …)`,
 * flutter_dotenv's `dotenv.get('X', fallback: …)`): the default is what the app
 * ships with.
 */
export function dartDefaultOf(call: DartCall): Node | undefined {
  return call.named.get("defaultValue") ?? call.named.get("fallback");
}

/** `Uri.parse(s)`, `Uri.tryParse(s)`: the URL is the string. */
export function dartParsedString(call: DartCall): Node | undefined {
  const method = nameText(call.name);
  if (!/^(?:parse|tryParse)$/.test(method) || !call.receiver || nameText(call.receiver) !== "Uri") return undefined;
  return call.args[0];
}

/** `uri.replace(queryParameters: …)`: the query changes, the scheme, host and path stay. */
export function dartKeepsPath(call: DartCall): boolean {
  return (
    nameText(call.name) === "replace" &&
    call.args.length === 0 &&
    [...call.named.keys()].every((key) => key === "queryParameters" || key === "query" || key === "fragment")
  );
}
