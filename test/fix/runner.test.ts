/**
 * The fix runner: UTF-16 files (as Windows tools save appsettings.json)
 * rewritten as text, written back in their encoding with their BOM; writes
 * under way while the next files are fixed, each file still accounted for in
 * path order.
 */
import { chmodSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";
import { planFixes } from "../../src/fix/runner.js";
import { DEFAULT_NODE_REF } from "../../transforms/node-pin/target.js";
import { tempRepo } from "../helpers/temp-repo.js";

/** Writes fix has opened (its temp files, opened "wx") and not yet renamed into place, and the most at once. */
const writes = vi.hoisted(() => ({ open: 0, most: 0 }));

vi.mock("node:fs/promises", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs/promises")>();
  const open: typeof fs.open = async (path, flags, mode) => {
    const handle = await fs.open(path, flags, mode);
    // Temp files only: the tree's lock is also opened "wx", and is removed, not renamed.
    if (flags === "wx" && String(path).endsWith(".tmp")) writes.most = Math.max(writes.most, ++writes.open);
    return handle;
  };
  const rename: typeof fs.rename = async (from, to) => {
    await fs.rename(from, to);
    if (String(from).endsWith(".tmp")) writes.open--;
  };
  return { ...fs, open, rename, default: { ...fs, open, rename } };
});

const SETTINGS = '{\r\n  "ComfyDeploy": { "BaseUrl": "https://www.comfydeploy.com/api" }\r\n}\r\n';

function utf16(text: string, encoding: "le" | "be"): Buffer {
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
  return encoding === "le" ? le : Buffer.from(le).swap16();
}

describe("fix on a UTF-16 file", () => {
  for (const encoding of ["le", "be"] as const) {
    it(`(${encoding.toUpperCase()}) rewrites the V1 host and keeps the encoding, the BOM and the line endings`, async () => {
      const root = tempRepo({ "appsettings.json": utf16(SETTINGS, encoding) });
      const plan = await planFixes({
        root,
        hosts: DEFAULT_HOSTS,
        transforms: ["v2-endpoints"],
        nodeRef: DEFAULT_NODE_REF,
        write: true,
      });
      expect(plan.skipped).toEqual([]);
      expect(plan.changes.map((c) => c.file)).toEqual(["appsettings.json"]);
      const expected = SETTINGS.replace("https://www.comfydeploy.com/api", "https://api.comfydeploy.com/api");
      expect(readFileSync(join(root, "appsettings.json")).equals(utf16(expected, encoding))).toBe(true);
    });
  }
});

const V1_SDK_FILE = `import { ComfyDeployClient } from "comfydeploy";

const client = new ComfyDeployClient({ apiToken: process.env.COMFY_TOKEN ?? "" });

export const generate = (prompt: string) => client.run({ deployment_id: "dep", inputs: { prompt } });
export const check = (id: string) => client.getRun(id);
`;

/** A package on the V1 SDK with `count` files that use it. */
function v1Package(count: number): Record<string, string> {
  const files: Record<string, string> = {
    "package.json": `${JSON.stringify({ name: "app", dependencies: { comfydeploy: "^0.0.19" } }, null, 2)}\n`,
  };
  for (let i = 0; i < count; i++) files[`src/comfy-${String(i).padStart(2, "0")}.ts`] = V1_SDK_FILE;
  return files;
}

describe("writing while fixing", () => {
  it("fixes the next files while earlier writes are under way, a few at a time", async () => {
    writes.most = 0;
    const root = tempRepo(v1Package(20));
    const plan = await planFixes({
      root,
      hosts: DEFAULT_HOSTS,
      transforms: ["v2-sdk", "sdk-dependency"],
      nodeRef: DEFAULT_NODE_REF,
      write: true,
    });
    expect(plan.skipped).toEqual([]);
    expect(plan.changes).toHaveLength(22);
    expect(writes.most).toBeGreaterThan(1);
    expect(writes.most).toBeLessThanOrEqual(9);
    expect(writes.open).toBe(0);
  });

  it("accounts for each file in path order, and a write refused in the middle keeps its package on V1", async () => {
    const root = tempRepo(v1Package(12));
    chmodSync(join(root, "src/comfy-05.ts"), 0o444);
    const plan = await planFixes({
      root,
      hosts: DEFAULT_HOSTS,
      transforms: ["v2-sdk", "sdk-dependency"],
      nodeRef: DEFAULT_NODE_REF,
      write: true,
    });
    const written = Object.keys(v1Package(12)).filter((file) => file.startsWith("src/") && file !== "src/comfy-05.ts");
    expect(plan.changes.map((c) => c.file)).toEqual([...written, "src/comfydeploy-v1-compat.ts"]);
    expect(plan.skipped).toEqual([{ file: "src/comfy-05.ts", reason: expect.stringContaining("read-only") }]);
    expect(readFileSync(join(root, "package.json"), "utf8")).toContain('"comfydeploy": "^0.0.19"');
    expect(plan.notes.map((n) => n.file)).toContain("package.json");
  });
});
