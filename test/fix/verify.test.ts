/** verify runs nothing a repository ships in place of the checker's own modules, and hands its checks no token. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verifyChanges } from "../../src/fix/verify.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";

describe("verifyChanges on Python", () => {
  it("never imports the repository's own ast.py or sys.py", async () => {
    const marker = join(tempDir("cdm-spy-"), "imported");
    const spy = `open(${JSON.stringify(marker)}, "w").write("imported")\n`;
    const dir = tempRepo({ "ast.py": spy, "sys.py": spy, "app.py": "print('ok')\n" });
    const result = await verifyChanges(dir, ["app.py"]);
    expect(existsSync(marker)).toBe(false);
    expect(result.checks).toEqual([expect.objectContaining({ status: "passed" })]);
  });
});
