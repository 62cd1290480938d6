/**
 * Text that code writes (a generated Dockerfile, an install command), rebuilt
 * with the file's constants filled in: each character keeps the file offset
 * it comes from, so a pin kept in a constant is reported where the constant
 * is written. The Python and JS/TS readers build it; this module reads it
 * with the tracker, as a Dockerfile when it holds instructions, else as shell.
 */
import { ScriptContext } from "../../../lang/shell/interpreter.js";
import type { NodeCommandTracker } from "./node-pin-commands.js";
import { readDockerfileCommands } from "./node-pin-dockerfile.js";

/** A rebuilt string and, per character, the file offset it comes from. */
export interface Built {
  text: string;
  offsets: number[];
}

const DOCKERFILE_LINE = /^\s*(FROM|RUN|WORKDIR|ARG|ENV|ADD)\s/im;
/** Only strings that could install the node are read as commands. */
const COMMAND_HINT = /\bgit\b|\bcomfy\b|comfyui-deploy|\bpip\b|\buv\b|curl|wget/i;

export function emptyBuilt(): Built {
  return { text: "", offsets: [] };
}

export function append(built: Built, part: Built): void {
  built.text += part.text;
  built.offsets.push(...part.offsets);
}

export function slice(built: Built, from: number, to: number): Built {
  return { text: built.text.slice(from, to), offsets: built.offsets.slice(from, to) };
}

/** Text no one wrote (a separator lines are joined with), every character mapped to one offset. */
export function unwritten(text: string, at: number): Built {
  return { text, offsets: Array.from(text, () => at) };
}

/** A placeholder that the shell tracker keeps as an unresolved variable, pointing at the expression. */
export function placeholder(source: string, start: number): Built {
  const text = `\${${source.replace(/[^\w]/g, "_")}}`;
  // `${` and `}` stand for nothing written: the name's characters map onto the expression.
  return {
    text,
    offsets: Array.from(text, (_c, k) => start + Math.min(Math.max(k - 2, 0), Math.max(source.length - 1, 0))),
  };
}

/** Reads one rebuilt string's commands; pins found so far are sealed, clones stay open for the next string. */
export function readGenerated(built: Built, tracker: NodeCommandTracker): void {
  if (!COMMAND_HINT.test(built.text)) return;
  const toSource = (offset: number): number => built.offsets[Math.min(offset, built.offsets.length - 1)] ?? 0;
  if (DOCKERFILE_LINE.test(built.text)) readDockerfileCommands(built.text, tracker, toSource);
  else tracker.run(new ScriptContext(built.text, toSource, "/"));
  tracker.seal();
}
