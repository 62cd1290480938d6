/** The shell interpreter: working directory, variables and the commands it hands over. */
import { describe, expect, it } from "vitest";
import { ScriptContext, ShellInterpreter } from "../../../src/lang/shell/interpreter.js";

function commands(script: string): Array<{ program: string; args: string[]; cwd: string }> {
  const seen: Array<{ program: string; args: string[]; cwd: string }> = [];
  const shell = new ShellInterpreter((program, args, context) =>
    seen.push({ program, args: args.map((w) => w.value), cwd: context.cwd }),
  );
  shell.run(new ScriptContext(script, (offset) => offset, "/app"));
  return seen;
}

describe("ShellInterpreter", () => {
  it("follows cd, pushd and popd, and unwraps sudo and sh -c", () => {
    const seen = commands(`cd nodes && pushd x && sudo -u me git status\npopd && bash -c "cd /tmp && make all"\nls`);
    expect(seen).toEqual([
      { program: "git", args: ["status"], cwd: "/app/nodes/x" },
      { program: "make", args: ["all"], cwd: "/tmp" },
      { program: "ls", args: [], cwd: "/app/nodes" },
    ]);
  });

  it("expands variables the script sets, and points at where their value is written", () => {
    const script = `export REF="abc1234"\nLOCAL=x git reset --hard $REF`;
    let span: { start: number; end: number } | undefined;
    let value: string | undefined;
    const shell = new ShellInterpreter((_program, args, context) => {
      const expanded = shell.expand(args[args.length - 1]!, context);
      value = expanded.value;
      span = expanded.span(expanded.value);
    });
    shell.run(new ScriptContext(script, (offset) => offset, "."));
    expect(value).toBe("abc1234");
    expect(script.slice(span!.start, span!.end)).toBe("abc1234");
    expect(span!.start).toBe(script.indexOf("abc1234"));
  });

  it("keeps an undefined variable as written and says it is unresolved", () => {
    let unresolved: string | undefined;
    const shell = new ShellInterpreter(
      (_program, args, context) => (unresolved = shell.expand(args[0]!, context).unresolved),
    );
    shell.run(new ScriptContext("git ${NODE_REF}", (offset) => offset, "."));
    expect(unresolved).toBe("${NODE_REF}");
  });
});
