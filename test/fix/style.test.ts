/**
 * fix keeps a file's own style. A fixture written as its Prettier config
 * formats it (`<case>.prettierrc.json` beside it) still passes Prettier after
 * fix, apart from the lines fix wrote; a semicolon-free file gets no
 * semicolon; and no file gains or loses its final newline.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { diffLines } from "diff";
import * as prettier from "prettier";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..", "fixtures", "transforms");

interface Pair {
  label: string;
  input: string;
  output: string;
  config?: prettier.Options;
}

function pairs(): Pair[] {
  const out: Pair[] = [];
  for (const transform of readdirSync(ROOT)) {
    const dir = join(ROOT, transform);
    for (const file of readdirSync(dir)) {
      const match = /^(.+?)\.input\.((?:c|m)?[jt]sx?)$/.exec(file);
      if (!match) continue;
      const [, name, ext] = match;
      const outputFile = join(dir, `${name}.output.${ext}`);
      const configFile = join(dir, `${name}.prettierrc.json`);
      out.push({
        label: `${transform}/${name}.${ext}`,
        input: readFileSync(join(dir, file), "utf8"),
        output: existsSync(outputFile) ? readFileSync(outputFile, "utf8") : readFileSync(join(dir, file), "utf8"),
        ...(existsSync(configFile)
          ? { config: { ...(JSON.parse(readFileSync(configFile, "utf8")) as prettier.Options), filepath: `x.${ext}` } }
          : {}),
      });
    }
  }
  return out;
}

/** 0-based lines of the statements fix rewrote: for each written line, the innermost statement holding it. */
function rewrittenStatements(text: string, written: ReadonlySet<number>): Set<number> {
  const source = ts.createSourceFile("x.tsx", text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
  const lines = new Set(written);
  for (const line of written) {
    let innermost: ts.Node | undefined;
    const visit = (node: ts.Node): void => {
      if (line < lineOf(node.getStart(source)) || line > lineOf(node.getEnd())) return;
      if (ts.isStatement(node) && !ts.isBlock(node) && !ts.isFunctionDeclaration(node) && !ts.isClassDeclaration(node))
        innermost = node;
      ts.forEachChild(node, visit);
    };
    visit(source);
    if (innermost) for (let l = lineOf(innermost.getStart(source)); l <= lineOf(innermost.getEnd()); l++) lines.add(l);
  }
  return lines;
}

/** 0-based indexes of the lines of `after` that are not lines of `before` (what fix wrote). */
function writtenLines(before: string, after: string): Set<number> {
  const written = new Set<number>();
  let line = 0;
  for (const part of diffLines(before, after)) {
    const count = part.count ?? 0;
    if (part.added) for (let i = 0; i < count; i++) written.add(line + i);
    if (!part.removed) line += count;
  }
  return written;
}

const all = pairs();
const styled = all.filter((p) => p.config);

describe("a file formatted with its Prettier config", () => {
  it("has fixtures to check, which pass Prettier before fix", async () => {
    expect(styled.length).toBeGreaterThanOrEqual(2);
    for (const pair of styled) expect(await prettier.check(pair.input, pair.config), pair.label).toBe(true);
  });

  it.each(styled.map((p) => [p.label, p] as const))(
    "%s: Prettier would change only lines fix wrote",
    async (_label, pair) => {
      const formatted = await prettier.format(pair.output, pair.config);
      const written = rewrittenStatements(pair.output, writtenLines(pair.input, pair.output));
      const restyled = [...writtenLines(formatted, pair.output)].filter((line) => !written.has(line));
      expect(restyled.map((line) => pair.output.split("\n")[line])).toEqual([]);
    },
  );

  it.each(styled.filter((p) => p.config?.semi === false).map((p) => [p.label, p] as const))(
    "%s: no semicolon added to a semicolon-free file",
    (_label, pair) => {
      const ends = (text: string) =>
        text.split("\n").filter((line) => /;\s*$/.test(line) && !/^\s*(\/\/|\*|\/\*)/.test(line));
      expect(ends(pair.output)).toEqual(ends(pair.input));
    },
  );
});

describe("every JS/TS fixture", () => {
  it.each(all.map((p) => [p.label, p] as const))("%s keeps its final newline as it was", (_label, pair) => {
    expect(pair.output.endsWith("\n")).toBe(pair.input.endsWith("\n"));
  });
});
