/**
 * Reading a request body as the service does. FastAPI parses a body as JSON
 * only when its Content-Type is application/json or application/*+json; any
 * other type, and since FastAPI 0.132 (strict_content_type, on by default)
 * no type at all, reaches validation as bytes and is a 422 at loc ["body"].
 * An empty body is a missing one. Content-Encoding is
 * decoded (gzip, deflate, br), within the same size limit as the raw body;
 * a body that does not decode is a 400, an encoding we cannot decode a 415.
 */
import type { IncomingMessage } from "node:http";
import { promisify } from "node:util";
import { brotliDecompress, gunzip, inflate, inflateRaw, type ZlibOptions } from "node:zlib";
import { HttpError, unprocessable } from "./http-error.js";
import { jsonInvalid, NOT_AN_OBJECT } from "./validation.js";

type Decoder = (data: Buffer, options: ZlibOptions) => Promise<Buffer>;

const gunzipAsync = promisify(gunzip) as Decoder;
const inflateAsync = promisify(inflate) as Decoder;
const inflateRawAsync = promisify(inflateRaw) as Decoder;
const brotliAsync = promisify(brotliDecompress) as Decoder;

const DECODERS: Record<string, Decoder> = {
  gzip: gunzipAsync,
  "x-gzip": gunzipAsync,
  // "deflate" should be zlib-wrapped (RFC 9110); some clients send raw deflate.
  deflate: (data, options) => inflateAsync(data, options).catch(() => inflateRawAsync(data, options)),
  br: brotliAsync,
};

export const ACCEPTED_ENCODINGS = "gzip, deflate, br";

export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const encodings = contentEncodings(req.headers["content-encoding"]);
  const unsupported = encodings.find((encoding) => !(encoding in DECODERS));
  if (unsupported !== undefined) {
    throw new HttpError(
      415,
      { detail: `Unsupported Content-Encoding: ${unsupported}` },
      { "accept-encoding": ACCEPTED_ENCODINGS },
    );
  }
  let bytes = await readRaw(req, maxBytes);
  // Codings are listed in the order they were applied: undo them last first.
  for (const encoding of [...encodings].reverse()) bytes = await decode(encoding, bytes, maxBytes);

  if (bytes.length === 0) throw unprocessable([{ loc: ["body"], msg: "Field required", type: "missing" }]);
  if (!isJsonType(req.headers["content-type"])) throw unprocessable([NOT_AN_OBJECT]);
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw unprocessable(jsonInvalid((error as Error).message));
  }
}

async function readRaw(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function decode(encoding: string, data: Buffer, maxBytes: number): Promise<Buffer> {
  try {
    return await DECODERS[encoding]!(data, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge(maxBytes);
    throw new HttpError(400, {
      detail: `There was an error parsing the body (Content-Encoding ${encoding}, but the body is not ${encoding} data)`,
    });
  }
}

/** `gzip, br` → ["gzip", "br"]; identity changes nothing. */
function contentEncodings(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== "" && part !== "identity");
}

/** application/json or application/*+json; a missing or empty Content-Type is not JSON (FastAPI's strict check). */
function isJsonType(header: string | undefined): boolean {
  if (header === undefined || header.trim() === "") return false;
  const mediaType = header.split(";")[0]!.trim().toLowerCase();
  const [type, subtype = ""] = mediaType.split("/");
  return type === "application" && (subtype === "json" || subtype.endsWith("+json"));
}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, { detail: `Request body larger than ${maxBytes} bytes` });
}
