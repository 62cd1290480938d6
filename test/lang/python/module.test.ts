/**
 * The shared Python model (PySyntax, PyModule): the position, call and
 * function queries that the scanner and both transform parts rely on.
 */
import { describe, expect, it } from "vitest";
import { PyModule } from "../../../src/lang/python/module.js";

/** Token index of the `nth` occurrence of `text` in the source (0-based). */
function tokenOf(module: PyModule, text: string, nth = 0): number {
  let from = -1;
  for (let i = 0; i <= nth; i++) from = module.text.indexOf(text, from + 1);
  return module.tokenStartingAt(from);
}

describe("positions", () => {
  const source = 'x = 1  # note\nurl = (\n    "https://example.test/run"\n)\n';
  const module = new PyModule(source);

  it("finds the token a span starts at, and none inside a token or a comment", () => {
    expect(module.tokens[module.tokenStartingAt(source.indexOf("url"))]?.value).toBe("url");
    expect(module.tokenStartingAt(source.indexOf("rl ="))).toBe(-1);
    expect(module.tokenStartingAt(source.indexOf("note"))).toBe(-1);
  });

  it("takes the token holding an offset, or the next one", () => {
    const inString = source.indexOf("example");
    expect(module.tokens[module.tokenFrom(inString)]?.kind).toBe("string");
    // In a comment: the next token is the line's end.
    expect(module.tokens[module.tokenFrom(source.indexOf("note"))]?.kind).toBe("newline");
  });

  it("puts a statement's line where the statement starts, also for an offset in a string on a later line", () => {
    expect(module.statementLineAt(source.indexOf("example"))).toBe(2);
    expect(module.statementLineAt(source.indexOf("1"))).toBe(1);
    expect(module.lineAt(source.indexOf("example"))).toBe(3);
  });
});

describe("calls", () => {
  const source = [
    "res = await get_client().run.get(run_id=rid)",
    "value = (await client.run.get_async(run_id=rid)).object",
    "other = wrap(client.run.get(run_id=rid)).object",
    "requests.post(url, json=body, *rest, **extra)",
    'payload = {"deployment_id": d, "inputs": {"a": 1}}',
    'mixed = {"deployment_id": d, **extra}',
  ].join("\n");
  const module = new PyModule(source);

  it("finds where a chained call begins: the first name, not the call it hangs off", () => {
    const open = tokenOf(module, "(run_id");
    expect(module.tokens[module.chainStart(open)!]?.value).toBe("get_client");
    const [assignment] = module.assignments.get("res")!;
    expect(module.callSpanning(assignment!.value)).toBe(open);
  });

  it("tells grouping parentheses from a call's", () => {
    expect(module.isGrouping(tokenOf(module, "(await client"))).toBe(true);
    expect(module.isGrouping(tokenOf(module, "(client.run.get(run_id=rid))"))).toBe(false);
    expect(module.isGrouping(tokenOf(module, "(run_id"))).toBe(false);
  });

  it("lists arguments as written, keyword names included, and splits them by kind", () => {
    const open = tokenOf(module, "(url");
    expect(
      module.argumentList(open).map((a) => (a.keyword === undefined ? "positional" : module.tokens[a.keyword]!.value)),
    ).toEqual(["positional", "json", "positional", "positional"]);
    const args = module.callArguments(open);
    expect(args.positional).toHaveLength(1);
    expect([...args.keyword.keys()]).toEqual(["json"]);
  });

  it("finds the innermost call around a token", () => {
    const body = tokenOf(module, "body");
    const call = module.enclosingCall(body)!;
    expect(module.tokens[call.open - 1]?.value).toBe("post");
    expect(module.enclosingCall(tokenOf(module, "payload"))).toBeUndefined();
  });

  it("reads the keys of a dict display only when every item is a plain string key", () => {
    const [payload] = module.assignments.get("payload")!;
    expect(module.literalDictKeys(payload!.value)).toEqual(["deployment_id", "inputs"]);
    const [mixed] = module.assignments.get("mixed")!;
    expect(module.literalDictKeys(mixed!.value)).toBeUndefined();
  });
});

describe("module functions", () => {
  const source = [
    "import functools",
    "",
    "def build(d):",
    "    if not d:",
    '        return {"deployment_id": "x"}',
    "    def inner():",
    '        return {"workflow_api": 1}',
    '    return {"deployment_id": d, "inputs": {}}',
    "",
    "@functools.cache",
    "def cached(d):",
    '    return {"deployment_id": d}',
    "",
    "def twice():",
    "    return 1",
    "",
    "def twice():",
    "    return 2",
  ].join("\n");
  const module = new PyModule(source);

  it("finds a function defined once at module level, and the returns directly in it", () => {
    const build = module.moduleFunction("build")!;
    expect(build.decorated).toBe(false);
    const keys = module.returnValues(build.scope).map((range) => module.literalDictKeys(range));
    expect(keys).toEqual([["deployment_id"], ["deployment_id", "inputs"]]);
  });

  it("says when a decorator wraps it, and gives up on a name defined twice or nested", () => {
    expect(module.moduleFunction("cached")?.decorated).toBe(true);
    expect(module.moduleFunction("twice")).toBeUndefined();
    expect(module.moduleFunction("inner")).toBeUndefined();
  });
});
