/**
 * Dockerfile instructions with their exact offsets. Continuation lines are
 * joined the way the builder joins them (escape character and newline
 * dropped, comment lines inside a continuation removed) by blanking those
 * characters in a copy of the text, so offsets into the copy are offsets
 * into the file. Heredoc bodies (`RUN <<EOF`) are kept as separate scripts.
 */
import { posix } from "node:path";

export interface DockerInstruction {
  /** Upper-case keyword: RUN, FROM, WORKDIR, ... */
  keyword: string;
  /** The arguments, on one line (continuations blanked); offsets match the file. */
  args: string;
  argsStart: number;
  /** Heredoc bodies, in order, as written. */
  heredocs: Array<{ text: string; start: number }>;
}

export function isDockerfile(file: string): boolean {
  const base = posix.basename(file).toLowerCase();
  return /^(docker|container)file([.-].*)?$/.test(base) || /\.(docker|container)file$/.test(base);
}

export function readDockerfile(text: string): DockerInstruction[] {
  const lines = physicalLines(text);
  const escapeChar = escapeCharacter(lines);
  const chars = text.split("");
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to; k++) chars[k] = " ";
  };
  const instructions: Array<{ keyword: string; start: number; end: number; heredocs: DockerInstruction["heredocs"] }> =
    [];

  let i = 0;
  while (i < lines.length) {
    const first = lines[i]!;
    if (first.text.trim() === "" || first.text.trimStart().startsWith("#")) {
      i++;
      continue;
    }
    let j = i;
    for (;;) {
      const line = lines[j]!;
      const trimmedEnd = line.text.replace(/\s+$/, "");
      if (!trimmedEnd.endsWith(escapeChar) || j + 1 >= lines.length) break;
      // The escape character and the line break vanish; the next line continues the instruction.
      blank(line.start + trimmedEnd.length - 1, line.next);
      j++;
      while (j + 1 < lines.length && (lines[j]!.text.trim() === "" || lines[j]!.text.trimStart().startsWith("#"))) {
        blank(lines[j]!.start, lines[j]!.next);
        j++;
      }
    }
    const start = first.start;
    const end = lines[j]!.start + lines[j]!.text.length;
    const keyword = /^\s*([A-Za-z]+)/.exec(first.text)?.[1]?.toUpperCase() ?? "";
    const heredocs: DockerInstruction["heredocs"] = [];
    if (keyword === "RUN" || keyword === "COPY" || keyword === "ADD") {
      for (const match of text.slice(start, end).matchAll(/<<(-?)(["']?)([A-Za-z_][\w]*)\2/g)) {
        const dashed = match[1] === "-";
        const delimiter = match[3]!;
        let k = j + 1;
        while (k < lines.length && (dashed ? lines[k]!.text.replace(/^\t+/, "") : lines[k]!.text) !== delimiter) k++;
        const bodyStart = lines[j + 1]?.start ?? text.length;
        const bodyEnd = k < lines.length ? lines[k]!.start : text.length;
        heredocs.push({ text: text.slice(bodyStart, bodyEnd), start: bodyStart });
        j = Math.min(k, lines.length - 1);
      }
    }
    instructions.push({ keyword, start, end, heredocs });
    i = j + 1;
  }

  const joined = chars.join("");
  return instructions.map(({ keyword, start, end, heredocs }) => {
    const line = joined.slice(start, end);
    const argsOffset = /^\s*[A-Za-z]+\s*/.exec(line)?.[0].length ?? 0;
    return { keyword, args: joined.slice(start + argsOffset, end), argsStart: start + argsOffset, heredocs };
  });
}

interface PhysicalLine {
  text: string;
  start: number;
  /** Offset of the next line (after the line break). */
  next: number;
}

function physicalLines(text: string): PhysicalLine[] {
  const out: PhysicalLine[] = [];
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf("\n", start);
    const stop = newline < 0 ? text.length : newline;
    out.push({
      text: text.slice(start, stop).replace(/\r$/, ""),
      start,
      next: newline < 0 ? text.length : newline + 1,
    });
    if (newline < 0) break;
    start = newline + 1;
  }
  return out;
}

/** The `# escape=` parser directive (only before the first instruction or comment). */
function escapeCharacter(lines: PhysicalLine[]): string {
  for (const line of lines) {
    const directive = /^\s*#\s*([a-z]+)\s*=\s*(\S+)\s*$/i.exec(line.text);
    if (!directive) break;
    if (directive[1]!.toLowerCase() === "escape" && (directive[2] === "`" || directive[2] === "\\"))
      return directive[2];
  }
  return "\\";
}
