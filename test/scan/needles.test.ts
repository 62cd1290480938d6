/**
 * The prefilter's needles: a file that writes the run path only as a relative
 * argument (Retrofit's `@POST("run")`, Ktor's `post("run")`, on a base set in
 * another file) is a candidate; a `run` that is no path argument is not.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";
import { Prefilter, prefilterNeedles } from "../../src/scan/needles.js";

const prefilter = new Prefilter(prefilterNeedles(DEFAULT_HOSTS));
const matches = (text: string): boolean => prefilter.matches(Buffer.from(text));

describe("prefilter needles", () => {
  it("keeps a relative run path passed to a call or an annotation", () => {
    expect(matches('public interface Q {\n  @POST("run")\n  Call<R> create(@Body RunCreate body);\n}\n')).toBe(true);
    expect(matches("suspend fun q() = http.post('run') { setBody(b) }\n")).toBe(true);
  });

  it("leaves other uses of the word", () => {
    expect(matches('subprocess.run(["ls"])\nrunner.run("build")\nconst running = "run-fast";\n')).toBe(false);
  });
});
