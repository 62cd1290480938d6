/**
 * A URL assigned to a name, and the places the name is used: `runURL :=
 * base + "/run"` then `http.Post(runURL, ...)`; `URL="$API/run"` then
 * `curl -X POST "$URL"`. Name matching is textual, within one file.
 */
import type { TextFile } from "../../../lang/text/text-file.js";

/**
 * The name a value is assigned to, from the statement text before it:
 * `const X =`, `x :=`, `a, b :=`, `let x: &str =`, `$x =`, `key: `, `"key": `, `KEY=`.
 */
export function assignedName(before: string): string | undefined {
  const pattern =
    /(?:^|[^\w$.])\$?([A-Za-z_][\w.-]*?)(?:(?:\s*,\s*[A-Za-z_]\w*)*\s*:=|["']?\s*(?::\s*[&\w<>[\]'. ?]+?\s*)?=(?![=>~])|["']?\s*(?<!:):(?!:))/g;
  let name: string | undefined;
  for (const match of before.matchAll(pattern)) name = match[1];
  return name;
}

/** Offsets where `name` is used outside its own definition line and outside comments (`runURL`, `$URL`, `"${url}"`, `$this->url`). */
export function usesOf(file: TextFile, name: string, definitionLine: number): number[] {
  if (name.length < 2 && !/^[a-z]$/.test(name)) return [];
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`, "g");
  const uses: number[] = [];
  for (const match of file.text.matchAll(pattern)) {
    const at = match.index!;
    if (file.lineOf(at) === definitionLine || file.isComment(at)) continue;
    uses.push(at);
    if (uses.length > 50) break;
  }
  return uses;
}
