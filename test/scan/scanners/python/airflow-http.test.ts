/**
 * Airflow's HTTP operators, sensor and hook on a connection the repository
 * defines: the endpoint joined onto the connection's base is a V1 request
 * when that base is a ComfyDeploy host, reported for review with where the
 * connection is set. Another host, or a connection nobody defines, stays quiet.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../../../src/core/urls.js";
import { fileKind } from "../../../../src/platform/file-types.js";
import type { RepoFacts } from "../../../../src/scan/scanner.js";
import { scanPythonCode } from "../../../../src/scan/scanners/python/code.js";
import { pythonFindingLines } from "../../../helpers/python-scan.js";

const DAG = [
  "import json",
  "from airflow.providers.http.operators.http import HttpOperator",
  "from airflow.providers.http.sensors.http import HttpSensor",
  "from airflow.providers.http.hooks.http import HttpHook",
  "",
  "submit = HttpOperator(",
  '    task_id="submit",',
  '    http_conn_id="render_api",',
  '    endpoint="api/run",',
  '    method="POST",',
  '    data=json.dumps({"deployment_id": "{{ var.value.deployment }}", "inputs": {}}),',
  ")",
  "",
  "wait = HttpSensor(",
  '    task_id="wait",',
  '    http_conn_id="render_api",',
  '    endpoint="api/run",',
  "    request_params={",
  '        "run_id": "{{ ti.xcom_pull(task_ids=\'submit\') }}",',
  "    },",
  ")",
  "",
  "def fetch(run_id):",
  '    hook = HttpHook(method="GET", http_conn_id="render_api")',
  '    return hook.run("/api/run", data={"run_id": run_id}).json()',
  "",
].join("\n");

const lines = (files: Record<string, string>): string[] => pythonFindingLines("dags/render.py", files, false);

describe("Airflow HTTP requests on a connection the repository defines", () => {
  it("are V1 requests on a ComfyDeploy connection: the endpoint's line, a run_id below it on its own line", () => {
    const env = { ".env": "AIRFLOW_CONN_RENDER_API=https://www.comfydeploy.com\n" };
    expect(lines({ ...env, "dags/render.py": DAG })).toEqual([
      "9:legacy-create-run",
      "19:legacy-get-run",
      "25:legacy-get-run",
    ]);
  });

  it("take the connection from compose, JSON URIs and the CLI alike, the base path written once", () => {
    const compose =
      "services:\n  worker:\n    environment:\n      AIRFLOW_CONN_RENDER_API: 'https://www.comfydeploy.com/api'\n";
    expect(lines({ "docker-compose.yml": compose, "dags/render.py": DAG })).toHaveLength(3);
    const cli =
      "airflow connections add render_api --conn-type http --conn-host www.comfydeploy.com --conn-schema https\n";
    expect(lines({ "scripts/connections.sh": cli, "dags/render.py": DAG })).toHaveLength(3);
  });

  it("take the DAG's default_args connection for an operator that names none", () => {
    const dag = [
      "from airflow import DAG",
      "from airflow.providers.http.operators.http import SimpleHttpOperator",
      "",
      'default_args = {"owner": "renders", "http_conn_id": "render_api"}',
      "",
      'with DAG("renders", default_args=default_args) as dag:',
      '    SimpleHttpOperator(task_id="submit", endpoint="/api/run", data=\'{"deployment_id": "d"}\')',
      "",
    ].join("\n");
    const env = { ".env": "AIRFLOW_CONN_RENDER_API=https://www.comfydeploy.com\n" };
    expect(lines({ ...env, "dags/render.py": dag })).toEqual(["7:legacy-create-run"]);
  });

  it("say where the connection is set and leave the request for review", () => {
    const files: Record<string, string> = {
      ".env": "AIRFLOW_CONN_RENDER_API=https://www.comfydeploy.com\n",
      "dags/render.py": DAG,
    };
    const repo: RepoFacts = {
      files: Object.keys(files),
      root: "/repo",
      sdkImportingPackages: new Set(),
      read: (f) => files[f],
    };
    const text = files["dags/render.py"]!;
    const findings = scanPythonCode({
      file: "dags/render.py",
      text,
      bytes: Buffer.from(text),
      kind: fileKind("x.py"),
      hosts: DEFAULT_HOSTS,
      repo,
    });
    expect(findings).toHaveLength(3);
    expect(findings.every((f) => f.fix === "review" && f.message.includes(".env:1"))).toBe(true);
  });

  it("stay quiet on a connection to another host, or one the repository does not define", () => {
    expect(lines({ ".env": "AIRFLOW_CONN_RENDER_API=https://api.runpod.ai/v2\n", "dags/render.py": DAG })).toEqual([]);
    expect(lines({ ".env": "AIRFLOW_CONN_OTHER=https://www.comfydeploy.com\n", "dags/render.py": DAG })).toEqual([]);
  });
});
