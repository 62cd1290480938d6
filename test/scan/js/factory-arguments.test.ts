/**
 * A client built by a factory argument: a repository helper that calls its
 * factory parameter (`singleton("comfy", () => new ComfyDeployClient(…))`)
 * or a memoizing wrapper (`useMemo`), reported where its methods are called;
 * a helper that never calls the factory, or a factory building something
 * else, stays quiet.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../../src/core/urls.js";
import { scan } from "../../../src/scan/engine.js";
import { tempRepo } from "../../helpers/temp-repo.js";

async function callsIn(files: Record<string, string>, file: string): Promise<string[]> {
  const result = await scan({ root: tempRepo(files), hosts: DEFAULT_HOSTS, workers: false });
  return result.findings
    .filter((f) => f.file === file && f.ruleId === "v1-sdk-call")
    .map((f) => String(f.line))
    .sort();
}

const PACKAGE = '{ "name": "app", "private": true, "dependencies": { "comfydeploy": "0.0.19" } }\n';
const SINGLETON = [
  "export function singleton<T>(name: string, make: () => T): T {",
  "  const store = globalThis as unknown as { __single?: Record<string, unknown> };",
  "  store.__single ??= {};",
  "  store.__single[name] ??= make();",
  "  return store.__single[name] as T;",
  "}",
  "",
].join("\n");

describe("clients built by a factory argument", () => {
  it("follows a repository helper that calls its factory parameter, across modules", async () => {
    const calls = await callsIn(
      {
        "package.json": PACKAGE,
        "app/utils/singleton.server.ts": SINGLETON,
        "app/utils/comfy.server.ts": [
          'import { ComfyDeployClient } from "comfydeploy";',
          'import { singleton } from "./singleton.server";',
          'export const comfy = singleton("comfy", () => new ComfyDeployClient({ apiToken: process.env.TOKEN! }));',
          "export const getComfy = () => comfy;",
          "",
        ].join("\n"),
        "app/routes/render.ts": [
          'import { comfy, getComfy } from "../utils/comfy.server";',
          "export async function action(id: string) {",
          '  const run = await comfy.run({ deployment_id: "d", inputs: {} });',
          "  return getComfy().getRun(id);",
          "}",
          "",
        ].join("\n"),
      },
      "app/routes/render.ts",
    );
    expect(calls).toEqual(["3", "4"]);
  });

  it("follows React's useMemo", async () => {
    const calls = await callsIn(
      {
        "package.json": PACKAGE,
        "src/RenderButton.tsx": [
          'import { useMemo } from "react";',
          'import { ComfyDeployClient } from "comfydeploy";',
          "export function RenderButton({ token }: { token: string }) {",
          "  const client = useMemo(() => new ComfyDeployClient({ apiToken: token }), [token]);",
          '  return <button onClick={() => client.run({ deployment_id: "d" })}>Render</button>;',
          "}",
          "",
        ].join("\n"),
      },
      "src/RenderButton.tsx",
    );
    expect(calls).toEqual(["5"]);
  });

  it("stays quiet where the helper never calls the factory, or the factory builds another client", async () => {
    const files = {
      "package.json": PACKAGE,
      "src/keep.ts": "export function keep<T>(name: string, make: () => T): string {\n  return name;\n}\n",
      "src/singleton.ts": SINGLETON,
      "src/jobs.ts": [
        'import { ComfyDeployClient } from "comfydeploy";',
        'import { keep } from "./keep";',
        'import { singleton } from "./singleton";',
        "class TaskRunner { run(task: () => void) { task(); } getRun(id: string) { return id; } }",
        'const kept = keep("comfy", () => new ComfyDeployClient({ apiToken: "t" }));',
        'const runner = singleton("runner", () => new TaskRunner());',
        "export function go() {",
        "  runner.run(() => undefined);",
        '  return runner.getRun("1") + kept;',
        "}",
        "",
      ].join("\n"),
    };
    expect(await callsIn(files, "src/jobs.ts")).toEqual([]);
  });
});
