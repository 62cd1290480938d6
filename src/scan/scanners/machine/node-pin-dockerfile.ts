/**
 * Node pins in Dockerfiles, and in Dockerfile text that code writes: RUN
 * lines (and their heredocs) go to the shell tracker, WORKDIR moves the
 * working directory, ARG and ENV set variables, `ADD <git URL or archive>`
 * fetches the node directly.
 */
import { NodeCommandTracker } from "./node-pin-commands.js";
import type { NodePinSite } from "./node-pin-finding.js";
import { nodeSourceOf } from "./node-source-url.js";
import { resolveDir } from "../../../lang/shell/args.js";
import { ScriptContext } from "../../../lang/shell/interpreter.js";
import { readDockerfile } from "../../../lang/shell/dockerfile.js";
import { readShell } from "../../../lang/shell/words.js";

/**
 * RUN lines start in the WORKDIR (a `cd` does not outlive its RUN); clones,
 * ARG and ENV values live for the whole file. `ADD <archive or git URL>`
 * downloads the node directly.
 */
export function dockerfilePins(text: string): NodePinSite[] {
  const tracker = new NodeCommandTracker("dockerfile");
  readDockerfileCommands(text, tracker);
  return tracker.sites();
}

/** Feeds a Dockerfile's instructions to the tracker; `toSource` maps offsets in `text` to the file's (for Dockerfiles written by code). */
export function readDockerfileCommands(
  text: string,
  tracker: NodeCommandTracker,
  toSource: (offset: number) => number = (offset) => offset,
): void {
  let workdir = "/";
  for (const instruction of readDockerfile(text)) {
    const context = new ScriptContext(instruction.args, (offset) => toSource(instruction.argsStart + offset), workdir);
    switch (instruction.keyword) {
      case "FROM":
        workdir = "/";
        break;
      case "WORKDIR": {
        const [word] = readShell(instruction.args)[0]?.words ?? [];
        if (word) workdir = resolveDir(workdir, tracker.expand(word, context).value);
        break;
      }
      case "ARG":
      case "ENV":
        dockerVariables(instruction.keyword, context, tracker);
        break;
      case "RUN":
        tracker.run(context);
        for (const heredoc of instruction.heredocs) {
          tracker.run(new ScriptContext(heredoc.text, (offset) => toSource(heredoc.start + offset), workdir));
        }
        break;
      case "ADD": {
        const words = (readShell(instruction.args)[0]?.words ?? []).filter((w) => !w.value.startsWith("--"));
        const destination = words.length > 1 ? words[words.length - 1]!.value : ".";
        for (const word of words.slice(0, -1)) {
          const url = tracker.expand(word, context);
          const source = nodeSourceOf(url.value);
          if (source?.kind === "repository") {
            // `ADD <repo>.git#<ref> <dir>` is a checkout of that ref in <dir>.
            const pin = source.ref ? { text: source.ref.text, ...url.span(source.ref.text) } : undefined;
            tracker.addCheckout(resolveDir(workdir, destination), url.span(), pin);
          } else tracker.addSourceUrl(url);
        }
        break;
      }
    }
  }
}

/** `ARG NAME=value`, `ENV NAME=value ...` and the legacy `ENV NAME value`. */
function dockerVariables(keyword: string, context: ScriptContext, tracker: NodeCommandTracker): void {
  const words = readShell(context.text)[0]?.words ?? [];
  if (keyword === "ENV" && words.length >= 2 && !words[0]!.value.includes("=")) {
    const [name, first] = words as [(typeof words)[number], (typeof words)[number]];
    const last = words[words.length - 1]!;
    const start = context.toSource(first.start);
    tracker.setVariable(name.value, {
      value: words
        .slice(1)
        .map((w) => w.value)
        .join(" "),
      start,
      raw: context.text.slice(first.start, last.end),
    });
    return;
  }
  for (const word of words) if (/^[A-Za-z_]\w*=/.test(word.value)) tracker.assign(word, context);
}
