/**
 * fix's progress line on stderr while it works: the scan's counts, then files
 * fixed of the candidates. Only on a terminal (a pipe or a CI log gets
 * nothing), redrawn at most every 100 ms and erased when fix is done.
 */
import type { ScanProgress } from "../scan/engine.js";

export interface FixProgress {
  onProgress?: (progress: ScanProgress) => void;
  onFileDone?: (done: number, total: number) => void;
  /** Erases the line. */
  end(): void;
}

export function fixProgress(stream: NodeJS.WriteStream = process.stderr): FixProgress {
  if (!stream.isTTY) return { end: () => undefined };
  let last = 0;
  let shown = false;
  const draw = (line: string, force: boolean): void => {
    const now = Date.now();
    if (!force && now - last < 100) return;
    last = now;
    shown = true;
    stream.write(`\r\x1b[K${line}`);
  };
  return {
    onProgress: (p) =>
      draw(`fix: scanning: ${p.listed} files listed, ${p.candidates} candidates, ${p.parsed} parsed`, false),
    onFileDone: (done, total) => draw(`fix: ${done}/${total} files with findings done`, done === total),
    end: () => {
      if (shown) stream.write("\r\x1b[K");
      shown = false;
    },
  };
}
