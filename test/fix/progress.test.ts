/** fix's progress line: on a terminal only, redrawn in place, erased at the end. */
import { describe, expect, it } from "vitest";
import { fixProgress } from "../../src/fix/progress.js";

function fakeStream(isTTY: boolean): { stream: NodeJS.WriteStream; written: string[] } {
  const written: string[] = [];
  const stream = { isTTY, write: (chunk: string) => written.push(chunk) > 0 } as unknown as NodeJS.WriteStream;
  return { stream, written };
}

describe("fix progress", () => {
  it("draws the scan's counts, then files done of the candidates, and erases the line at the end", () => {
    const { stream, written } = fakeStream(true);
    const progress = fixProgress(stream);
    progress.onProgress?.({ phase: "listing", listed: 0, candidates: 0, parsed: 0 });
    progress.onFileDone?.(3, 3);
    progress.end();
    expect(written[0]).toBe("\r\x1b[Kfix: scanning: 0 files listed, 0 candidates, 0 parsed");
    expect(written).toContain("\r\x1b[Kfix: 3/3 files with findings done");
    expect(written.at(-1)).toBe("\r\x1b[K");
  });

  it("writes nothing when stderr is not a terminal", () => {
    const { stream, written } = fakeStream(false);
    const progress = fixProgress(stream);
    expect(progress.onProgress).toBeUndefined();
    expect(progress.onFileDone).toBeUndefined();
    progress.end();
    expect(written).toEqual([]);
  });
});
