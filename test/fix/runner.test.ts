/** fix on UTF-16 files (as Windows tools save appsettings.json): rewritten as text, written back in their encoding with their BOM. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";
import { planFixes } from "../../src/fix/runner.js";
import { DEFAULT_NODE_REF } from "../../transforms/node-pin/target.js";
import { tempRepo } from "../helpers/temp-repo.js";

const SETTINGS = '{\r\n  "ComfyDeploy": { "BaseUrl": "https://www.comfydeploy.com/api" }\r\n}\r\n';

function utf16(text: string, encoding: "le" | "be"): Buffer {
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
  return encoding === "le" ? le : Buffer.from(le).swap16();
}

describe("fix on a UTF-16 file", () => {
  for (const encoding of ["le", "be"] as const) {
    it(`(${encoding.toUpperCase()}) rewrites the V1 host and keeps the encoding, the BOM and the line endings`, async () => {
      const root = tempRepo({ "appsettings.json": utf16(SETTINGS, encoding) });
      const plan = await planFixes({ root, hosts: DEFAULT_HOSTS, transforms: ["v2-endpoints"], nodeRef: DEFAULT_NODE_REF, write: true });
      expect(plan.skipped).toEqual([]);
      expect(plan.changes.map((c) => c.file)).toEqual(["appsettings.json"]);
      const expected = SETTINGS.replace("https://www.comfydeploy.com/api", "https://api.comfydeploy.com/api");
      expect(readFileSync(join(root, "appsettings.json")).equals(utf16(expected, encoding))).toBe(true);
    });
  }
});
