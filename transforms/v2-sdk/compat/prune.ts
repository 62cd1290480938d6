/**
 * The compat template cut down to what a package uses: the exports its files
 * name, the declarations those need, the imports that are left in use, and
 * the header's list of what the module keeps. An app that uses two functions
 * gets those two and their helpers, not all of V1.
 */
import { loadTypeScript, type TypeScript } from "../../../src/platform/typescript.js";

type Ts = TypeScript;
type Statement = import("ts-morph").ts.Statement;
type Node = import("ts-morph").ts.Node;

/** The TypeScript template with only the declarations `used` reaches (every one when `used` is undefined). */
export function pruneTemplate(source: string, used: ReadonlySet<string> | undefined): string {
  if (!used) return source;
  const ts = loadTypeScript();
  const file = ts.createSourceFile("compat.ts", source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const declared = new Map<string, Statement>();
  for (const statement of file.statements)
    for (const name of declaredNames(ts, statement)) declared.set(name, statement);
  // Declarations reachable from the used exports, through the names each one mentions.
  const kept = new Set<Statement>();
  const pending = [...used].filter((name) => declared.has(name));
  while (pending.length > 0) {
    const statement = declared.get(pending.pop()!)!;
    if (kept.has(statement)) continue;
    kept.add(statement);
    for (const name of mentionedNames(ts, statement))
      if (declared.has(name) && !kept.has(declared.get(name)!)) pending.push(name);
  }
  const mentioned = new Set([...kept].flatMap((statement) => [...mentionedNames(ts, statement)]));
  const keptNames = new Set([...kept].flatMap((statement) => declaredNames(ts, statement)));
  const edits: Array<{ start: number; end: number; text: string }> = [];
  // The file's header comment stays, whatever statement it hangs on.
  const headerEnd = /^\/\*\*[\s\S]*?\*\/\n/.exec(source)?.[0].length ?? 0;
  for (const statement of file.statements) {
    const start = Math.max(statement.getFullStart(), headerEnd);
    const end = statement.getEnd();
    if (ts.isImportDeclaration(statement)) {
      const names = importedNames(ts, statement);
      if (!names.some((name) => mentioned.has(name))) edits.push({ start, end, text: "" });
    } else if (!kept.has(statement)) {
      edits.push({ start, end, text: "" });
    }
  }
  let out = source;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return pruneHeader(out.replace(/\n{3,}/g, "\n\n"), keptNames);
}

/** The header's `- name, name: what it does` items for declarations that were kept. */
function pruneHeader(source: string, kept: ReadonlySet<string>): string {
  const header = /^\/\*\*[\s\S]*?\*\//.exec(source)?.[0];
  if (!header) return source;
  const lines = header.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const item = /^ \* - ([\w, ]+):/.exec(lines[i]!);
    if (!item) {
      out.push(lines[i]!);
      continue;
    }
    const block = [lines[i]!];
    while (i + 1 < lines.length && /^ \* {3}\S/.test(lines[i + 1]!)) block.push(lines[++i]!);
    // The item names only what is kept: `- getUploadUrl, getWebsocketUrl:` becomes `- getWebsocketUrl:`.
    const names = item[1]!
      .split(",")
      .map((name) => name.trim())
      .filter((name) => kept.has(name));
    if (names.length > 0) out.push(block[0]!.replace(item[1]!, names.join(", ")), ...block.slice(1));
  }
  return source.replace(header, out.join("\n"));
}

function declaredNames(ts: Ts, statement: Statement): string[] {
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
  }
  if (
    (ts.isFunctionDeclaration(statement) ||
      ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement) ||
      ts.isClassDeclaration(statement)) &&
    statement.name
  ) {
    return [statement.name.text];
  }
  return [];
}

function importedNames(ts: Ts, statement: import("ts-morph").ts.ImportDeclaration): string[] {
  const clause = statement.importClause;
  if (!clause) return [];
  const names = clause.name ? [clause.name.text] : [];
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) names.push(bindings.name.text);
  if (bindings && ts.isNamedImports(bindings)) names.push(...bindings.elements.map((e) => e.name.text));
  return names;
}

/** `x` in `a.x`, `{ x: 1 }`, `interface { x(): void }`: a member, not a reference to a declaration. */
function isMemberName(ts: Ts, node: import("ts-morph").ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent)) return parent.name === node;
  const named =
    ts.isPropertySignature(parent) ||
    ts.isMethodSignature(parent) ||
    ts.isPropertyAssignment(parent) ||
    ts.isMethodDeclaration(parent) ||
    ts.isPropertyDeclaration(parent);
  return named && parent.name === node;
}

/** Every identifier a statement mentions (a superset of the names it needs, which is what keeping requires). */
function mentionedNames(ts: Ts, statement: Statement): Set<string> {
  const names = new Set<string>();
  const visit = (node: Node): void => {
    if (ts.isIdentifier(node) && !isMemberName(ts, node)) names.add(node.text);
    node.forEachChild(visit);
  };
  statement.forEachChild(visit);
  return names;
}
