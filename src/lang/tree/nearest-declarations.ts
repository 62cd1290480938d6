/**
 * A name's value from the declaration nearest to where it is read, across
 * every file of the repository in its language: a generated API class reads
 * `basePath`, which its own package's `ApiClient` declares
 * (`private String basePath = "https://…"`). Nearest means the file itself,
 * then the files sharing the most directories with it, so that two generated
 * clients, each with its own `ApiClient`, are told apart. A local address
 * (`http://localhost`, a generator's placeholder) says the app sets the base
 * at run time: then nothing is known.
 */
import { posix } from "node:path";
import type { TreeSource } from "./declarations.js";
import { isUnknown, type TreeValues } from "./values.js";

export interface DeclaredValue {
  value: string;
  file: string;
  line: number;
}

export interface RepositorySources {
  mentioning(word: string, like: TreeSource): readonly TreeSource[];
  values: TreeValues;
}

const PLACEHOLDER_HOST =
  /^[a-z]+:\/\/(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]|[\w.-]*example\.(?:com|org))(?::\d+)?(?:\/|$)/i;

export function nearestDeclaredValue(
  name: string,
  from: TreeSource,
  sources: RepositorySources,
): DeclaredValue | undefined {
  const ranked = [...sources.mentioning(name, from)].sort(
    (a, b) => nearness(b, from) - nearness(a, from) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0),
  );
  for (const source of ranked) {
    for (const binding of source.bindings.get(name) ?? []) {
      if (binding.kind !== "value" || typeof binding.value === "string") continue;
      const value = sources.values.valueOf(binding.value, source);
      if (isUnknown(value)) continue;
      // A local default means the app sets the base at run time: the nearest declaration decides nothing.
      if (PLACEHOLDER_HOST.test(value)) return undefined;
      return {
        value,
        file: source.file,
        line: binding.value.startPosition.row + 1,
      };
    }
  }
  return undefined;
}

/** The file itself first, then by how many directories it shares. */
function nearness(source: TreeSource, from: TreeSource): number {
  if (source.file === from.file) return Number.MAX_SAFE_INTEGER;
  const a = posix.dirname(source.file).split("/");
  const b = posix.dirname(from.file).split("/");
  let shared = 0;
  while (shared < a.length && shared < b.length && a[shared] === b[shared]) shared++;
  return shared;
}
