/**
 * Finds the AST nodes the scan's findings point at, so a transform rewrites
 * exactly what the scan proved (which calls are on V1 clients, which imports
 * name V1 exports) instead of guessing again.
 *
 * Findings carry 1-based line/column positions in the text as scanned; an
 * earlier transform in the same run may have edited the file since, so their
 * lines are mapped onto the current text first (see src/fix/line-map.ts).
 */
import type { ASTPath, Collection, JSCodeshift } from "jscodeshift";
import type { Finding } from "../../src/core/finding.js";
import { type LineMap, lineMapBetween } from "./line-map.js";

/** recast's default tab width, which jscodeshift parses with. */
const RECAST_TAB_WIDTH = 4;

/** Width of leading whitespace as recast counts it: a tab advances to the next tab stop. */
function indentWidth(spaces: string): number {
  let count = 0;
  for (const c of spaces) {
    if (c === "\t") {
      const stop = Math.ceil(count / RECAST_TAB_WIDTH) * RECAST_TAB_WIDTH;
      count = stop === count ? count + RECAST_TAB_WIDTH : stop;
    } else if (c !== "\v" && c !== "\f" && c !== "\r" && c !== "\ufeff") {
      count += 1;
    }
  }
  return count;
}

/**
 * Every node path of a file, by where its node starts. recast parses a copy
 * of the text whose leading tabs are expanded, so its columns (and offsets)
 * differ from the scan's (which, like editors and SARIF, count a tab as one
 * code unit) on tab-indented lines; a finding's column is converted to
 * recast's before the lookup.
 */
export class FindingSites {
  private readonly byPosition = new Map<string, ASTPath[]>();
  private readonly mapLine: LineMap;
  private readonly lines: string[];

  constructor(j: JSCodeshift, root: Collection, current: string, scanned: string | undefined) {
    this.mapLine = lineMapBetween(scanned, current);
    this.lines = current.split("\n");
    root.find(j.Node).forEach((nodePath) => {
      const path = nodePath as unknown as ASTPath;
      const loc = (path.node as { loc?: { start: { line: number; column: number } } }).loc;
      if (!loc) return;
      const key = `${loc.start.line}:${loc.start.column}`;
      const list = this.byPosition.get(key);
      if (list) list.push(path);
      else this.byPosition.set(key, [path]);
    });
  }

  /** The paths of nodes starting where the finding starts, outermost first. */
  at(finding: Finding): ASTPath[] {
    const line = this.mapLine(finding.line);
    const text = line === undefined ? undefined : this.lines[line - 1];
    if (text === undefined) return [];
    const column = finding.column - 1;
    const spaces = /^\s*/.exec(text)![0];
    const recastColumn = column < spaces.length ? column : indentWidth(spaces) + (column - spaces.length);
    return this.byPosition.get(`${line}:${recastColumn}`) ?? [];
  }
}
