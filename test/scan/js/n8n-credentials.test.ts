/**
 * n8n community nodes: requests on the base a credential type's property
 * gives by `default`, read through `this.getCredentials(...)`, n8n's request
 * helpers (directly or through a GenericFunctions helper called with
 * `.call(this, …)`), declarative routing on `requestDefaults`, and a
 * credential's test request. A credential for another API stays quiet.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../../src/core/urls.js";
import { scan } from "../../../src/scan/engine.js";
import { rulesIn } from "../../helpers/scan-rules.js";
import { tempRepo } from "../../helpers/temp-repo.js";

const credential = (base: string): string =>
  [
    "import type { ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';",
    "",
    "export class RenderApi implements ICredentialType {",
    "  name = 'renderApi';",
    "  displayName = 'Render API';",
    "  properties: INodeProperties[] = [",
    "    { displayName: 'API Key', name: 'apiKey', type: 'string', typeOptions: { password: true }, default: '' },",
    `    { displayName: 'Base URL', name: 'baseUrl', type: 'string', default: '${base}' },`,
    "  ];",
    "  test: ICredentialTestRequest = {",
    "    request: {",
    "      baseURL: '={{$credentials.baseUrl}}',",
    "      url: '/run',",
    "      qs: {",
    "        run_id: '00000000-0000-0000-0000-000000000000',",
    "      },",
    "    },",
    "  };",
    "}",
    "",
  ].join("\n");

const IMPERATIVE = [
  "import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';",
  "",
  "export class Render implements INodeType {",
  "  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {",
  "    const credentials = await this.getCredentials('renderApi');",
  "    const queued = await this.helpers.httpRequestWithAuthentication.call(this, 'renderApi', {",
  "      method: 'POST',",
  "      url: `${credentials.baseUrl}/run`,",
  "      body: { deployment_id: this.getNodeParameter('deploymentId', 0), inputs: {} },",
  "    });",
  "    const status = await this.helpers.httpRequest({",
  "      url: `${credentials.baseUrl as string}/run`,",
  "      qs: {",
  "        run_id: queued.run_id,",
  "      },",
  "    });",
  "    return [this.helpers.returnJsonArray([status])];",
  "  }",
  "}",
  "",
].join("\n");

const GENERIC = [
  "import type { IDataObject, IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';",
  "",
  "export async function renderApiRequest(this: IExecuteFunctions, method: IHttpRequestMethods, endpoint: string, body: IDataObject = {}, qs: IDataObject = {}) {",
  "  const credentials = await this.getCredentials('renderApi');",
  "  const options = { method, url: `${credentials.baseUrl}${endpoint}`, body, qs, json: true };",
  "  return this.helpers.httpRequestWithAuthentication.call(this, 'renderApi', options);",
  "}",
  "",
].join("\n");

const NODE_WITH_HELPER = [
  "import type { IExecuteFunctions } from 'n8n-workflow';",
  "import { renderApiRequest } from './GenericFunctions';",
  "",
  "export async function queue(this: IExecuteFunctions, deploymentId: string) {",
  "  return renderApiRequest.call(this, 'POST', '/run', { deployment_id: deploymentId, inputs: {} });",
  "}",
  "",
].join("\n");

const DECLARATIVE = [
  "import type { INodeType, INodeTypeDescription } from 'n8n-workflow';",
  "",
  "export class Render implements INodeType {",
  "  description: INodeTypeDescription = {",
  "    displayName: 'Render',",
  "    name: 'render',",
  "    credentials: [{ name: 'renderApi', required: true }],",
  "    requestDefaults: { baseURL: '={{$credentials.baseUrl}}', headers: { 'Content-Type': 'application/json' } },",
  "    properties: [",
  "      {",
  "        displayName: 'Operation',",
  "        name: 'operation',",
  "        type: 'options',",
  "        options: [",
  "          { name: 'Queue', value: 'queue', routing: { request: { method: 'POST', url: '/run' } } },",
  "          {",
  "            name: 'Status',",
  "            value: 'status',",
  "            routing: { request: { method: 'GET', url: '=/run?run_id={{$parameter.runId}}' } },",
  "          },",
  "        ],",
  "        default: 'queue',",
  "      },",
  "      { displayName: 'Deployment ID', name: 'deployment_id', type: 'string', default: '' },",
  "    ],",
  "  };",
  "}",
  "",
].join("\n");

const V1 = "https://www.comfydeploy.com/api";
const OTHER = "https://api.runpod.ai/v2/abc123";

describe("n8n nodes on a credential type's base", () => {
  it("read credentials.baseUrl from getCredentials: create on the url, a status on its run_id line", async () => {
    const files = { "credentials/RenderApi.credentials.ts": credential(V1), "nodes/Render/Render.node.ts": IMPERATIVE };
    expect(await rulesIn(files, "nodes/Render/Render.node.ts")).toEqual(["14:legacy-get-run", "8:legacy-create-run"]);
  });

  it("follow a GenericFunctions helper called with .call(this, …) to the caller's path", async () => {
    const files = {
      "credentials/RenderApi.credentials.ts": credential(V1),
      "nodes/Render/GenericFunctions.ts": GENERIC,
      "nodes/Render/queue.ts": NODE_WITH_HELPER,
    };
    expect(await rulesIn(files, "nodes/Render/queue.ts")).toEqual(["5:legacy-create-run"]);
  });

  it("read declarative routing on requestDefaults and the credential's test request", async () => {
    const files = {
      "credentials/RenderApi.credentials.ts": credential(V1),
      "nodes/Render/Render.node.ts": DECLARATIVE,
    };
    expect(await rulesIn(files, "nodes/Render/Render.node.ts")).toEqual(["15:legacy-create-run", "19:legacy-get-run"]);
    expect(await rulesIn(files, "credentials/RenderApi.credentials.ts")).toEqual([
      "15:legacy-get-run",
      "8:legacy-base-url",
    ]);
  });

  it("leave requests declared as data to a person: no statement near them takes a marker", async () => {
    const files = {
      "credentials/RenderApi.credentials.ts": credential(V1),
      "nodes/Render/Render.node.ts": DECLARATIVE,
    };
    const result = await scan({ root: tempRepo(files), hosts: DEFAULT_HOSTS, workers: false });
    const requests = result.findings.filter((f) => f.ruleId !== "legacy-base-url");
    expect(requests).toHaveLength(3);
    expect(requests.every((f) => f.fix === "manual")).toBe(true);
  });

  it("stay quiet when the credential's base is another API", async () => {
    const files = {
      "credentials/RenderApi.credentials.ts": credential(OTHER),
      "nodes/Render/GenericFunctions.ts": GENERIC,
      "nodes/Render/queue.ts": NODE_WITH_HELPER,
      "nodes/Render/Render.node.ts": DECLARATIVE,
      "nodes/Render/Imperative.node.ts": IMPERATIVE,
    };
    const all = await Promise.all(Object.keys(files).map((file) => rulesIn(files, file)));
    expect(all.flat()).toEqual([]);
  });
});
