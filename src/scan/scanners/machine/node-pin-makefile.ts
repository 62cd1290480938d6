/**
 * Node pins in Makefiles: recipe lines are shell commands, read by the same
 * tracker as scripts, with make's variables (`REF := <sha>`, `?=`, `=`,
 * `::=`, `override`/`export` prefixes) filled in where `$(REF)` or `${REF}`
 * is written. A pin kept in a variable is reported where the variable is set.
 */
import { ScriptContext } from "../../../lang/shell/interpreter.js";
import { NodeCommandTracker } from "./node-pin-commands.js";
import type { NodePinSite } from "./node-pin-finding.js";

/** `NAME := value` at the start of a line (not a recipe line, which starts with a tab). */
const ASSIGNMENT = /^(?:(?:override|export|private)\s+)*([A-Za-z_][\w.-]*)\s*(?::{1,3}=|\?=|\+=|!=|=)[ \t]*(.*)$/;
/** `$(NAME)` and `${NAME}`: the same length as the shell's `${NAME}`, so offsets hold. */
const MAKE_VARIABLE = /\$\(([A-Za-z_][\w.-]*)\)|\$\{([A-Za-z_][\w.-]*)\}/g;

interface Recipe {
  text: string;
  offsets: number[];
}

export function makefilePins(text: string): NodePinSite[] {
  const tracker = new NodeCommandTracker("shell");
  const variables = new Map<string, string>();
  const recipe: Recipe = { text: "", offsets: [] };
  let offset = 0;
  let continued = false;
  for (const line of text.split("\n")) {
    const start = offset;
    offset += line.length + 1;
    const body = line.replace(/\r$/, "");
    if (body.startsWith("\t") || continued) {
      if (continued) appendLine(recipe, body, start, 0);
      else {
        // `@`, `-` and `+` only tell make how to run the line.
        const from = /^\t[@+\-\s]*/.exec(body)![0].length;
        appendLine(recipe, body, start, from);
      }
      continued = body.endsWith("\\");
      if (!continued) runRecipeLine(recipe, tracker);
      continue;
    }
    const assignment = ASSIGNMENT.exec(body);
    if (!assignment) continue;
    const [, name, rawValue] = assignment as unknown as [string, string, string];
    const raw = rawValue.replace(/\s+#.*$/, "").trimEnd();
    const value = raw.replace(
      MAKE_VARIABLE,
      (match, paren?: string, brace?: string) => variables.get(paren ?? brace ?? "") ?? match,
    );
    variables.set(name, value);
    tracker.setVariable(name, { value, start: start + body.length - rawValue.length, raw });
  }
  runRecipeLine(recipe, tracker);
  return tracker.sites();
}

/** Each recipe line runs in its own shell, in the Makefile's directory: a `cd` does not outlive it. */
function runRecipeLine(recipe: Recipe, tracker: NodeCommandTracker): void {
  if (recipe.text.trim() !== "") {
    const { offsets } = recipe;
    tracker.run(new ScriptContext(recipe.text, (at) => offsets[Math.min(at, offsets.length - 1)] ?? 0, "."));
  }
  recipe.text = "";
  recipe.offsets = [];
}

/** A recipe line from `from` on, with `$(NAME)` written as the shell's `${NAME}` and `$$` as `$`. */
function appendLine(into: Recipe, body: string, start: number, from: number): void {
  const shell = body.replace(MAKE_VARIABLE, (_match, paren?: string, brace?: string) => `\${${paren ?? brace}}`);
  for (let pos = from; pos < shell.length; pos++) {
    into.text += shell[pos];
    into.offsets.push(start + pos);
    if (shell[pos] === "$" && shell[pos + 1] === "$") pos++;
  }
  into.text += "\n";
  into.offsets.push(start + body.length);
}
