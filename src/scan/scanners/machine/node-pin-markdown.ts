/**
 * Node pins in the fenced code blocks of Markdown docs (a README's setup
 * section): shell and Dockerfile blocks are read as the files they show.
 * Docs only name a pin when they write a version or a ref; an unversioned
 * `comfy node install` or a plain clone in a README is not reported.
 */
import { dockerfilePins } from "./node-pin-dockerfile.js";
import { NodeCommandTracker } from "./node-pin-commands.js";
import type { NodePinSite } from "./node-pin-finding.js";
import { ScriptContext } from "../../../lang/shell/interpreter.js";

/** Info strings of blocks holding shell commands; a block without one is read as shell too. */
const SHELL_BLOCKS = new Set(["", "sh", "bash", "shell", "console", "zsh", "shell-session", "terminal"]);
const DOCKERFILE_BLOCKS = new Set(["dockerfile", "docker"]);
/** A prompt before a command in a console transcript (`$ comfy node install …`). */
const PROMPT = /^\s*[$%]\s+/;

interface Block {
  language: string;
  /** The whole file with everything outside the block (and prompts) blanked, so offsets stay the file's. */
  masked: string;
}

export function markdownPins(text: string): NodePinSite[] {
  const sites: NodePinSite[] = [];
  for (const block of fencedBlocks(text)) {
    if (DOCKERFILE_BLOCKS.has(block.language)) sites.push(...dockerfilePins(block.masked));
    else if (SHELL_BLOCKS.has(block.language)) {
      const tracker = new NodeCommandTracker("shell");
      tracker.run(new ScriptContext(block.masked, (offset) => offset, "."));
      sites.push(...tracker.sites());
    }
  }
  return sites.filter((site) => site.decision.ref !== "");
}

function fencedBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let open: { fence: string; language: string; start: number } | undefined;
  let offset = 0;
  for (const line of text.split("\n")) {
    const lineStart = offset;
    offset += line.length + 1;
    const fence = /^\s{0,3}(`{3,}|~{3,})\s*([\w+-]*)/.exec(line);
    if (!fence) continue;
    if (!open) open = { fence: fence[1]!, language: fence[2]!.toLowerCase(), start: offset };
    else if (fence[1]![0] === open.fence[0] && fence[1]!.length >= open.fence.length && fence[2] === "") {
      blocks.push({ language: open.language, masked: masked(text, open.start, lineStart) });
      open = undefined;
    }
  }
  return blocks;
}

/** The file with everything outside [start, end) and every prompt as spaces; line breaks are kept. */
function masked(text: string, start: number, end: number): string {
  const blank = (part: string): string => part.replace(/[^\n]/g, " ");
  const body = text
    .slice(start, end)
    .split("\n")
    .map((line) => line.replace(PROMPT, (prompt) => " ".repeat(prompt.length)))
    .join("\n");
  return blank(text.slice(0, start)) + body + blank(text.slice(end));
}
