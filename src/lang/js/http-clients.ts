/**
 * The HTTP clients of JS/TS as data: which modules and globals are which
 * client family, which methods make a request, which options carry the
 * query and the body. The scanner recognises requests with it and the
 * endpoint transform reshapes them with it.
 */

export type ClientFamily = "fetch" | "axios" | "got" | "ky" | "undici" | "node-http";

/** Modules whose default (or `fetch`) export is a fetch. */
export const FETCH_MODULES: ReadonlySet<string> = new Set([
  "node-fetch",
  "cross-fetch",
  "isomorphic-fetch",
  "isomorphic-unfetch",
  "ofetch",
  "undici",
]);
export const MODULE_FAMILIES: Readonly<Record<string, ClientFamily>> = {
  axios: "axios",
  got: "got",
  ky: "ky",
  "ky-universal": "ky",
  undici: "undici",
  http: "node-http",
  https: "node-http",
  "node:http": "node-http",
  "node:https": "node-http",
};
export const GLOBAL_CLIENTS: Readonly<Record<string, ClientFamily>> = {
  fetch: "fetch",
  axios: "axios",
  got: "got",
  ky: "ky",
  $fetch: "fetch",
};

/** Lower-case HTTP verbs as client method names. */
export const VERBS: ReadonlySet<string> = new Set(["get", "post", "put", "patch", "delete", "head", "options"]);
/** Methods whose second argument is the body (axios.post(url, data, config)). */
export const BODY_VERBS: ReadonlySet<string> = new Set(["post", "put", "patch"]);
/** The methods that make a request, per client family. */
export const FAMILY_METHODS: Readonly<Record<ClientFamily, ReadonlySet<string>>> = {
  axios: new Set([...VERBS, "request"]),
  got: VERBS,
  ky: VERBS,
  undici: new Set(["request", "fetch"]),
  "node-http": new Set(["get", "request"]),
  fetch: new Set(),
};
/** Method names that make a request on some client, or on an unknown object (`.get`/`.post`). */
export const REQUEST_METHODS: ReadonlySet<string> = new Set([
  ...VERBS,
  ...Object.values(FAMILY_METHODS).flatMap((methods) => [...methods]),
]);

/** The option that becomes the query string, per client family (node-http takes none). */
export const QUERY_OPTION: Readonly<Record<ClientFamily, string | undefined>> = {
  axios: "params",
  got: "searchParams",
  ky: "searchParams",
  fetch: "query",
  undici: "query",
  "node-http": undefined,
};
/** Every option that becomes the query string on some client. */
export const QUERY_OPTIONS: readonly string[] = [
  ...new Set(Object.values(QUERY_OPTION).filter((name) => name !== undefined)),
];
/** Options that hold the request body: axios `data` in a config object, `body` and got/ky `json` in options. */
export const BODY_OPTIONS: readonly string[] = ["body", "json", "data"];
