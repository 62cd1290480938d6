/** A path into a parsed config or campaign file as users write it: `rules.legacy-base-url.paths[0]`. */
export function keyPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === "number" ? `[${part}]` : `${i > 0 ? "." : ""}${String(part)}`))
    .join("");
}
