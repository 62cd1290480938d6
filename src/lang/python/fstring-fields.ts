/**
 * The code inside f-strings: each replacement field (`{expr!r:spec}`)
 * tokenized on its own, format specs and nested fields included, so that
 * reads like `f"{res.object.live_status}"` are seen as the names and
 * attributes they are. Offsets stay those of the file.
 */
import { isString, type PyStringToken, type PyToken, skipReplacementField, tokenizePython } from "./tokens.js";

/** Token runs of every replacement field of the f-strings among `tokens`, nested f-strings included. */
export function fStringFields(text: string, tokens: readonly PyToken[]): PyToken[][] {
  const out: PyToken[][] = [];
  for (const token of tokens) if (isFormatted(token)) collectFields(text, token, out);
  return out;
}

function isFormatted(token: PyToken): token is PyStringToken {
  return isString(token) && (token.prefix.includes("f") || token.prefix.includes("t"));
}

function collectFields(text: string, token: PyStringToken, out: PyToken[][]): void {
  const singleLine = token.quote.length === 1;
  let pos = token.bodyStart;
  while (pos < token.bodyEnd) {
    const c = text[pos]!;
    if (c === "\\" && !token.prefix.includes("r")) pos += 2;
    else if ((c === "{" || c === "}") && text[pos + 1] === c) pos += 2;
    else if (c === "{") {
      const close = skipReplacementField(text, pos + 1, singleLine, token.bodyEnd);
      // The field's expression, conversion and spec together: a spec's own `{...}` fields are code too.
      const field = tokenizePython(text, pos + 1, Math.max(pos + 1, close - 1)).tokens.filter(
        (t) => t.kind !== "newline",
      );
      out.push(field);
      for (const inner of field) if (isFormatted(inner)) collectFields(text, inner, out);
      pos = close;
    } else pos++;
  }
}
