/**
 * The paths of a jscodeshift tree that `collection.find(type, filter)`
 * returns (the same NodePath objects, in the same order), found by one plain
 * walk. `find` sets up ast-types' visitor machinery for every call and every
 * node, which costs about three times the walk itself; fix runs a few of
 * these searches on every file it rewrites.
 *
 * The walk does what ast-types' visitor does: children in the order of the
 * type's field names, fields a node lacks filled in with their defaults,
 * each array's elements as they were when the walk reached it, and each
 * collection path's own node left out.
 */
import type { ASTPath, Collection, JSCodeshift } from "jscodeshift";

type AnyValue = { type?: unknown; [key: string]: unknown };

const hasOwn = Object.prototype.hasOwnProperty;
const objectToString = Object.prototype.toString;

/** Per searched type: whether a node type is it or one of its subtypes (as the visitor dispatches). */
const subtypeTables = new Map<string, Map<string, boolean>>();

function isOfType(j: JSCodeshift, typeName: string, wanted: string): boolean {
  let table = subtypeTables.get(wanted);
  if (!table) {
    table = new Map();
    subtypeTables.set(wanted, table);
  }
  let answer = table.get(typeName);
  if (answer === undefined) {
    answer = typeName === wanted || (isDefined(j, typeName) && j.types.getSupertypeNames(typeName).includes(wanted));
    table.set(typeName, answer);
  }
  return answer;
}

function isDefined(j: JSCodeshift, typeName: string): boolean {
  return (j.types.namedTypes as Record<string, unknown>)[typeName] !== undefined;
}

/** The paths `collection.find(j[type], filter)` would return. */
export function findPaths(j: JSCodeshift, collection: Collection, type: string, filter?: object): ASTPath[] {
  const { getFieldNames, getFieldValue } = j.types;
  const found: ASTPath[] = [];
  const walk = (path: ASTPath, root: ASTPath): void => {
    const value = path.value as unknown;
    if (Array.isArray(value)) {
      const children: ASTPath[] = [];
      for (let i = 0; i < value.length; i++) if (hasOwn.call(value, i)) children[i] = path.get(i) as ASTPath;
      for (let i = 0; i < children.length; i++) if (hasOwn.call(children, i)) walk(children[i]!, root);
      return;
    }
    if (objectToString.call(value) !== "[object Object]") return;
    const node = value as AnyValue;
    if (
      path !== root &&
      typeof node.type === "string" &&
      isOfType(j, node.type, type) &&
      (!filter || j.match(path as never, filter as never))
    ) {
      found.push(path);
    }
    const names = getFieldNames(node);
    const children: ASTPath[] = [];
    for (const name of names) {
      if (!hasOwn.call(node, name)) node[name] = getFieldValue(node, name);
      children.push(path.get(name) as ASTPath);
    }
    for (const child of children) walk(child, root);
  };
  for (const root of collection.paths() as unknown as ASTPath[]) walk(root, root);
  return found;
}
