/**
 * Text from scanned files, file names and server answers, made safe to print
 * on a terminal: control characters (C0 but tab and newline, DEL, C1) and the
 * bidirectional overrides behind "Trojan Source" are shown as escapes
 * (`\x1b`, `\u202e`), as git and ESLint show them, so a file can neither clear
 * the screen, set the window title, nor reorder what the reader sees.
 */

// C0 controls except \t and \n, DEL, C1 controls, bidi embeddings/overrides/isolates.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_OR_NEWLINE = /[\u0000-\u0008\n-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function escapeChar(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** Multi-line text for the terminal: newlines and tabs stay, every other control is escaped. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/** One line for the terminal (a file name, a message, an excerpt): newlines are escaped too. */
export function terminalSafeLine(text: string): string {
  return text.replace(UNSAFE_OR_NEWLINE, escapeChar);
}
