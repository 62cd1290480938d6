/**
 * The Airflow connections a repository defines, and the base the HTTP hook
 * builds from each: env variables in every file that sets them, the CLI's
 * `connections add`, connection files and chart values.
 */
import { describe, expect, it } from "vitest";
import {
  airflowConnections,
  connectionValue,
  hookBase,
} from "../../../../src/scan/scanners/python/airflow-connections.js";

const table = (files: Record<string, string>) => {
  const found = airflowConnections(Object.keys(files), (f) => files[f]);
  return Object.fromEntries([...found].map(([id, c]) => [id, `${c.base} @${c.file}:${c.line}`]));
};

describe("the base the HTTP hook builds from a connection", () => {
  it("follows HttpHook: a host with a scheme is the base, else the schema (or http) is the scheme", () => {
    expect(hookBase({ conn_type: "http", host: "https://render.example.com/api/" })).toBe(
      "https://render.example.com/api",
    );
    expect(hookBase({ conn_type: "http", host: "render.example.com", schema: "https" })).toBe(
      "https://render.example.com",
    );
    expect(hookBase({ conn_type: "http", host: "render.example.com", port: 8080 })).toBe(
      "http://render.example.com:8080",
    );
    expect(hookBase({ conn_type: "http" })).toBeUndefined();
  });

  it("reads URIs (percent-encoded parts decoded, a non-scheme path kept) and JSON", () => {
    expect(hookBase(connectionValue("http://https%3A%2F%2Frender.example.com%2Fv1")!)).toBe(
      "https://render.example.com/v1",
    );
    expect(hookBase(connectionValue("http://:token@render.example.com/https")!)).toBe("https://render.example.com");
    expect(hookBase(connectionValue("https://render.example.com/api")!)).toBe("https://render.example.com/api");
    expect(hookBase(connectionValue('{"conn_type": "http", "host": "render.example.com", "schema": "https"}')!)).toBe(
      "https://render.example.com",
    );
  });
});

describe("connections a repository defines", () => {
  it("finds AIRFLOW_CONN_* in env files, Dockerfiles, compose files and Helm env lists, with the line", () => {
    expect(
      table({
        ".env": "AIRFLOW_UID=50000\nAIRFLOW_CONN_RENDER_API=https://render.example.com/api\n",
        Dockerfile: "FROM apache/airflow:2.9.2\nENV AIRFLOW_CONN_IMAGES_API='http://images.example.com/https'\n",
        "docker-compose.yaml": [
          "services:",
          "  scheduler:",
          "    environment:",
          "      AIRFLOW_CONN_QUEUE_API: 'http://https%3A%2F%2Fqueue.example.com'",
          "      - AIRFLOW_CONN_LIST_FORM=http://list.example.com/https",
          "",
        ].join("\n"),
        "chart/values.yaml": [
          "env:",
          "  - name: AIRFLOW_CONN_CHART_API",
          '    value: \'{"conn_type": "http", "host": "chart.example.com", "schema": "https"}\'',
          "",
        ].join("\n"),
      }),
    ).toEqual({
      render_api: "https://render.example.com/api @.env:2",
      images_api: "https://images.example.com @Dockerfile:2",
      queue_api: "https://queue.example.com @docker-compose.yaml:4",
      list_form: "https://list.example.com @docker-compose.yaml:5",
      chart_api: "https://chart.example.com @chart/values.yaml:3",
    });
  });

  it("finds `airflow connections add` (continuation lines joined) and connection files", () => {
    expect(
      table({
        "scripts/init.sh": [
          "#!/usr/bin/env bash",
          "airflow connections add 'render_api' \\",
          "  --conn-type http \\",
          "  --conn-host render.example.com \\",
          "  --conn-schema https",
          'airflow connections add images_api --conn-uri "http://images.example.com/https"',
          "",
        ].join("\n"),
        "config/connections.json": JSON.stringify(
          { queue_api: { conn_type: "http", host: "queue.example.com", schema: "https", port: null } },
          null,
          2,
        ),
        "config/connections.yaml": "uri_api: http://uri.example.com/https\n",
        "helm/values.yaml":
          "airflow:\n  connections:\n    - id: listed_api\n      type: http\n      host: https://listed.example.com\n",
        "airflow_settings.yaml": [
          "airflow:",
          "  connections:",
          "    - conn_id: astro_api",
          "      conn_type: http",
          "      conn_host: astro.example.com",
          "      conn_schema: https",
          "",
        ].join("\n"),
      }),
    ).toEqual({
      render_api: "https://render.example.com @scripts/init.sh:2",
      images_api: "https://images.example.com @scripts/init.sh:6",
      queue_api: "https://queue.example.com @config/connections.json:4",
      uri_api: "https://uri.example.com @config/connections.yaml:1",
      listed_api: "https://listed.example.com @helm/values.yaml:5",
      astro_api: "https://astro.example.com @airflow_settings.yaml:5",
    });
  });

  it("defines nothing from prose or other variables", () => {
    expect(
      table({ "README.md": "Set AIRFLOW_CONN_RENDER_API=https://render.example.com", ".env": "RENDER=x\n" }),
    ).toEqual({});
  });
});
