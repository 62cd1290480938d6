/** v2-endpoints: what it rewrites and what it marks, in code (JS/TS) and in every other file. */
import { HOSTS, V1_ONLY_CREATE_FIELDS } from "../../src/knowledge/migration.js";
import type { TransformMeta } from "../types.js";
import { ENDPOINT_TEXT } from "./advice.js";
import { RUN_ID_KEY } from "../../src/core/run-path.js";

export const meta = {
  id: "v2-endpoints",
  title: "V1 host and run endpoints to V2 (raw HTTP)",
  rules: ["legacy-base-url", "legacy-create-run", "legacy-get-run"],
  rewrites: [
    `JS/TS: ${HOSTS.v1.apiBase} → ${HOSTS.v2.apiBase} in string literals, templates, concatenations and same-file constants (a bare https://${HOSTS.v1.host} stays bare)`,
    `JS/TS: ${ENDPOINT_TEXT.createV1} → ${ENDPOINT_TEXT.createV2} when the method is known and the body has no V1-only fields`,
    `JS/TS: ${ENDPOINT_TEXT.getV1} → ${ENDPOINT_TEXT.getV2} in templates and concatenations, from axios params, ky/got searchParams, undici query, and new URL + searchParams.set`,
    `Python, config, other languages, shell, Markdown code, JSON: ${HOSTS.v1.apiBase} → ${HOSTS.v2.apiBase} in string values and settings (a bare https://${HOSTS.v1.host} stays bare; comments and prose untouched)`,
    `Python and text: ${ENDPOINT_TEXT.createV1} → ${ENDPOINT_TEXT.createV2} where the method is known (curl -X POST, requests.post, a collection's method)`,
    `Go, PHP, C#, Ruby, Java, Kotlin, Dart: the /run literal of a URL whose base the scan resolved in another file or setting, as in one string; Go's q.Set("${RUN_ID_KEY}", id) on {base}/run → {base}/run/ + url.PathEscape(id)`,
    `Python and text: ${ENDPOINT_TEXT.getV1} → ${ENDPOINT_TEXT.getV2} inside one string (f-strings, placeholders, a string ending in ${RUN_ID_KEY}= followed by + id) and from requests' params={"${RUN_ID_KEY}": rid} with a one-string URL; Postman url path/query arrays follow`,
    `Code: the id moved into the path is escaped with the language's own call (rawurlencode, url.PathEscape, ERB::Util.url_encode, Uri.EscapeDataString, URLEncoder.encode with %20, Uri.encodeComponent, urllib.parse.quote(…, safe="")) and the import it needs; shell keeps it as it is and says so`,
  ],
  marks: [
    "JS/TS: /run requests whose HTTP method is not known",
    `JS/TS: create-run bodies with fields the V2 queue endpoint does not take (${V1_ONLY_CREATE_FIELDS.slice(0, 3).join(", ")}, ...)`,
    "JS/TS: bases on configured legacy hosts that are not the vendor's, and /run paths built in another module or a shared value",
    "Python and text: /run URLs whose method is not known, /run paths written apart from their base, and other run_id shapes",
    "Python and text: create-run bodies with V1-only fields (JSON: left as found, no comments there); legacy hosts other than the vendor's",
  ],
} as const satisfies TransformMeta;
