/**
 * UTF-16 text files (a README or appsettings.json as Windows tools save them,
 * with a byte order mark): read as text, and written back in the encoding
 * and with the BOM they had. Everything else is read as UTF-8.
 */

export type Utf16 = "utf16le" | "utf16be";

export function utf16Of(bytes: Uint8Array): Utf16 | undefined {
  if (bytes.length < 2) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf16be";
  return undefined;
}

/** The text of a UTF-16 file, its BOM kept as U+FEFF (as the UTF-8 reader keeps one). */
export function decodeUtf16(bytes: Uint8Array, encoding: Utf16): string {
  return new TextDecoder(encoding === "utf16le" ? "utf-16le" : "utf-16be", { ignoreBOM: true }).decode(bytes);
}

export function encodeUtf16(text: string, encoding: Utf16): Buffer {
  const bytes = Buffer.from(text, "utf16le");
  return encoding === "utf16le" ? bytes : bytes.swap16();
}

/** A file's bytes as UTF-8: UTF-16 with a BOM transcoded (the BOM becomes UTF-8's), anything else as it is. */
export function asUtf8(bytes: Buffer): Buffer {
  const encoding = utf16Of(bytes);
  return encoding ? Buffer.from(decodeUtf16(bytes, encoding), "utf8") : bytes;
}
