/**
 * Laravel's `config('services.comfydeploy.url')`: the file `config/services.php`
 * returns nested arrays, and the key path after the file's name picks the
 * value (`'comfydeploy' => ['url' => env('COMFY_URL', 'https://…')]`).
 */
import { posix } from "node:path";
import type { Node } from "web-tree-sitter";
import type { TreeSource } from "./declarations.js";
import { nameText } from "./syntax.js";
import type { DeclarationScope } from "./values.js";

/** The value a config key names, in the package's `config/<file>.php`. */
export function laravelConfigValue(
  key: string,
  from: TreeSource,
  scope: DeclarationScope,
): { source: TreeSource; value: Node } | undefined {
  const [file, ...path] = key.split(".");
  if (!file || path.length === 0) return undefined;
  for (const { source, value } of scope.lookup(path.at(-1)!, from, undefined)) {
    if (typeof value === "string" || !source.file.endsWith(`config/${file}.php`)) continue;
    if (posix.basename(source.file) !== `${file}.php`) continue;
    if (keysAbove(value).join(".") === path.join(".")) return { source, value };
  }
  return undefined;
}

/** The array keys a value sits under, outermost first. */
function keysAbove(value: Node): string[] {
  const keys: string[] = [];
  for (let at = value.parent; at; at = at.parent) {
    if (at.type !== "array_element_initializer") continue;
    const key = at.namedChild(0);
    if (key?.type !== "string") return [];
    keys.unshift(nameText(key));
  }
  return keys;
}
