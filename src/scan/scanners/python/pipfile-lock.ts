/**
 * Pipfile.lock (JSON): `{"default": {"comfydeploy": {"version": "==0.4.1"}}, "develop": {...}}`.
 * jsonc-parser gives offsets, so each entry is reported at its key.
 */
import { type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import type { DeclarationResult, PythonDeclaration } from "./declarations.js";
import { isPythonSdkName } from "./requirement.js";

export function readPipfileLock(text: string): DeclarationResult {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  const first = errors[0];
  if (first || !root) {
    const offset = first?.offset ?? 0;
    const line = text.slice(0, offset).split("\n").length;
    return {
      declarations: [],
      error: { message: `${first ? printParseErrorCode(first.error) : "empty document"} at line ${line}`, line },
    };
  }
  const declarations: PythonDeclaration[] = [];
  for (const category of properties(root)) {
    const [key, body] = category.children ?? [];
    if (!key || !body || key.value === "_meta") continue;
    for (const entry of properties(body)) {
      const [nameNode, spec] = entry.children ?? [];
      if (!nameNode || typeof nameNode.value !== "string" || !isPythonSdkName(nameNode.value)) continue;
      const fields = new Map(
        properties(spec).map((p) => [String(p.children?.[0]?.value), p.children?.[1]?.value as unknown]),
      );
      const version = fields.get("version");
      const reference = fields.get("git") ?? fields.get("path") ?? fields.get("file");
      const declaration: PythonDeclaration = {
        manifest: "pipfile-lock",
        // The key node includes its quotes.
        start: nameNode.offset + 1,
        end: nameNode.offset + nameNode.length - 1,
        kind: typeof version === "string" ? "locked" : "reference",
        spec: typeof version === "string" ? version : "",
        section: String(key.value),
      };
      if (typeof reference === "string") declaration.reference = reference;
      const markers = fields.get("markers");
      if (typeof markers === "string") declaration.marker = markers;
      declarations.push(declaration);
    }
  }
  return { declarations };
}

function properties(node: Node | undefined): Node[] {
  return node?.type === "object" ? (node.children ?? []).filter((c) => c.type === "property") : [];
}
