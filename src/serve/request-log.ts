/**
 * The one line per request `serve` prints on stderr, as dev servers do:
 * `POST /api/run/deployment/queue 200 3 ms`. Never a header (the bearer
 * token lives there); secrets in the query are masked, and control
 * characters are shown escaped so a request cannot drive the terminal.
 */
import { redactUrlCredentials } from "../core/redact.js";

export function requestLogLine(entry: { method: string; url: string; status: number; ms: number }): string {
  return `${printable(entry.method)} ${printable(redactUrlCredentials(entry.url))} ${entry.status} ${Math.round(entry.ms)} ms`;
}

function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}
