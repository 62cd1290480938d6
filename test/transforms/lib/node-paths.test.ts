/**
 * findPaths against jscodeshift's own find, on every JS/TS input of the
 * transform fixtures: the same NodePath objects in the same order, for the
 * searches the transforms make, before and after the tree is edited.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import jscodeshift, { type ASTPath, type Collection, type JSCodeshift } from "jscodeshift";
import { describe, expect, it } from "vitest";
import { isJsFile } from "../../../src/platform/file-types.js";
import { parserFor } from "../../../transforms/lib/jscodeshift-part.js";
import { findPaths } from "../../../transforms/lib/node-paths.js";

const FIXTURES = join(import.meta.dirname, "..", "..", "..", "fixtures", "transforms");

const inputs = readdirSync(FIXTURES).flatMap((transform) =>
  readdirSync(join(FIXTURES, transform))
    .filter((name) => name.includes(".input.") && isJsFile(name))
    .map((name) => join(transform, name)),
);

/** The searches the transforms make: every node, names, declarations, qualified type names. */
const SEARCHES: Array<[string, object | undefined]> = [
  ["Node", undefined],
  ["Identifier", undefined],
  ["Identifier", { name: "client" }],
  ["JSXIdentifier", undefined],
  ["ImportDeclaration", undefined],
  ["ImportSpecifier", undefined],
  ["VariableDeclarator", undefined],
  ["ObjectPattern", undefined],
  ["TSQualifiedName", undefined],
  ["Expression", undefined],
];

function expectSameAsFind(j: JSCodeshift, collection: Collection): void {
  for (const [type, filter] of SEARCHES) {
    const expected = collection
      .find((j as unknown as Record<string, Parameters<Collection["find"]>[0]>)[type]!, filter)
      .paths();
    const actual = findPaths(j, collection, type, filter);
    expect(actual.length, `${type} ${JSON.stringify(filter ?? {})}`).toBe(expected.length);
    expect(
      actual.every((path, i) => path === expected[i]),
      `${type} ${JSON.stringify(filter ?? {})}`,
    ).toBe(true);
  }
}

describe("findPaths", () => {
  it("has JS/TS fixtures to compare on", () => {
    expect(inputs.length).toBeGreaterThan(20);
  });

  it.each(inputs)("returns what find returns on %s, on a fresh tree and on an edited one", (input) => {
    const j = jscodeshift.withParser(parserFor(input));
    const source = readFileSync(join(FIXTURES, input), "utf8");
    // A fresh tree first (the walk fills in missing fields, as find does), then find first.
    const fresh = j(source);
    expect(findPaths(j, fresh, "Node").length).toBe(j(source).find(j.Node).size());
    const root = j(source);
    expectSameAsFind(j, root);
    // Edited: a statement replaced by new code, the new nodes not yet walked by anyone.
    const first = root.find(j.Program).paths()[0]!.get("body", 0) as ASTPath;
    if (first.value)
      first.replace(j("const added = call(client, { key: [value] });").find(j.Program).paths()[0]!.node.body[0]);
    expectSameAsFind(j, root);
    // Searches below nodes other than the root: every import declaration at once.
    expectSameAsFind(j, root.find(j.ImportDeclaration));
  });
});
