/**
 * The scanner (which finds a detached V1 run path in any text) and the
 * endpoint transform (which rewrites it) read the run path one way.
 */
import { describe, expect, it } from "vitest";
import { findRunPaths } from "../../src/scan/scanners/text/run-paths.js";
import { moveRunIdIntoPath } from "../../transforms/v2-endpoints/urls.js";

const scanned = (text: string): Array<{ text: string; hasRunIdQuery: boolean }> =>
  findRunPaths(text).map(({ text: matched, hasRunIdQuery }) => ({ text: matched, hasRunIdQuery }));

describe("the V1 run path", () => {
  it("ends with an optional trailing slash, for the scanner as for the transform", () => {
    expect(scanned('curl "$API/run/?run_id=$1"')).toEqual([{ text: "$API/run/?run_id=$1", hasRunIdQuery: true }]);
    expect(moveRunIdIntoPath("$API/run/?run_id=$1")).toBe("$API/run/$1");
    expect(scanned('url = base + "/run/"')).toEqual([{ text: "/run/", hasRunIdQuery: false }]);
  });

  it("takes run_id from the query only, never from the fragment", () => {
    expect(scanned('"$API/run?x=1#a&run_id=2"')).toEqual([{ text: "$API/run?x=1#a&run_id=2", hasRunIdQuery: false }]);
    expect(moveRunIdIntoPath("$API/run?x=1#a&run_id=2")).toBeUndefined();
  });

  it("reads Ruby interpolation after the query as part of it, not as a fragment", () => {
    expect(scanned('"#{base}/run?run_id=#{id}"').map((path) => path.hasRunIdQuery)).toEqual([true]);
    expect(moveRunIdIntoPath("#{base}/run?run_id=#{id}")).toBe("#{base}/run/#{id}");
  });

  it("is not the V2 paths below /run", () => {
    expect(scanned('"$API/run/deployment/queue"')).toEqual([]);
    expect(scanned('"$API/run/$ID"')).toEqual([]);
  });
});
