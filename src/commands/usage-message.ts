/**
 * Usage errors from yargs, made helpful: the whole yargs message on one line,
 * plus the nearest known option, value or command ("did you mean …?").
 * yargs suggests commands (`recommendCommands`) but not options or values.
 */
import { closest } from "../platform/did-you-mean.js";
import { UsageError } from "../core/errors.js";

/** The options a command knows, as yargs holds them after its builder ran. */
export interface KnownOptions {
  keys: string[];
  /** Option name → its aliases. */
  aliases: Record<string, string[]>;
  booleans: string[];
  numbers: string[];
}

/** Before a command is chosen: the tool's own options. */
export const TOP_LEVEL_OPTIONS: KnownOptions = {
  keys: ["help", "version", "color"],
  aliases: { help: ["h"], version: ["V"] },
  booleans: ["color"],
  numbers: [],
};

/** Every spelling a user may type, without dashes: names, aliases and `no-` forms of booleans. */
function spellings(known: KnownOptions): string[] {
  const names = [...known.keys, ...Object.values(known.aliases).flat()].filter((n) => n.length > 1 && !/[A-Z]/.test(n));
  return [...new Set([...names, ...known.booleans.map((b) => `no-${b}`)])];
}

const dashed = (name: string): string => `${name.length === 1 ? "-" : "--"}${name}`;

/** Rewrites a yargs failure message; `argv` is what the user typed (for the word a command suggestion refers to). */
export function explainYargsFailure(
  message: string,
  known: KnownOptions,
  commands: readonly string[],
  argv: readonly string[],
): string {
  // `--verison` alone fails as "no command"; name the option instead.
  const strays = argv.filter((a) => /^--?[^-]/.test(a)).map((a) => a.replace(/^--?/, "").split("=")[0]!);
  const unknown = strays.filter(
    (name) => !spellings(known).includes(name) && !Object.values(known.aliases).flat().includes(name),
  );
  if (message.startsWith("Name a command") && unknown.length > 0) {
    return explainYargsFailure(
      `Unknown argument${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}`,
      known,
      commands,
      argv,
    );
  }
  const unknownArgs = /^Unknown arguments?: (.+)$/.exec(message);
  if (unknownArgs) {
    // yargs lists `--dry-rn` twice, as dry-rn and dryRn.
    const listed = unknownArgs[1]!.split(", ");
    const camel = (w: string): string => w.replace(/-([a-z])/g, (_, ch: string) => ch.toUpperCase());
    const words = listed.filter((w) => !listed.some((other) => other !== w && camel(other) === w));
    message = `Unknown argument${words.length > 1 ? "s" : ""}: ${words.join(", ")}`;
    const typed = (name: string): boolean => argv.some((a) => a === dashed(name) || a.startsWith(`${dashed(name)}=`));
    const hints = words.map((word) => {
      // yargs reports `--no-colr` as "colr".
      const as = typed(`no-${word}`) ? `no-${word}` : word;
      const typedAsOption = typed(as);
      const option = closest(as, spellings(known));
      if (option) return `${typedAsOption ? dashed(as) : as}: did you mean ${dashed(option)}?`;
      const command = typedAsOption ? undefined : closest(word, commands);
      return command ? `${word}: did you mean ${command}?` : undefined;
    });
    const suggestions = hints.filter((h) => h !== undefined);
    return `${message}${suggestions.length > 0 ? ` (${suggestions.join("; ")})` : ""}`;
  }
  const commandHint = /^Did you mean (\S+)\?$/.exec(message);
  if (commandHint) {
    const typed = argv.find((a) => !a.startsWith("-")) ?? "";
    return `Unknown command: ${typed} (did you mean ${commandHint[1]}?)`;
  }
  if (message.startsWith("Invalid values:")) {
    // "Invalid values:\n  Argument: format, Given: "jsn", Choices: "text", "json"" → one line, with the nearest choice.
    const lines = message
      .split("\n")
      .slice(1)
      .map((line) => line.trim())
      .filter(Boolean);
    const explained = lines.map((line) => {
      const m = /^Argument: ([^,]+), Given: (".*?"|\S+), Choices: (.*)$/.exec(line);
      if (!m) return line;
      const given = m[2]!.replace(/^"|"$/g, "");
      const choices = [...m[3]!.matchAll(/"([^"]*)"/g)].map((c) => c[1]!);
      const near = closest(given, choices);
      return `${line}${near ? ` (did you mean ${near}?)` : ""}`;
    });
    return `Invalid values: ${explained.join("; ")}`;
  }
  return message
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .join(" ");
}

/** yargs turns `--wait abc` into NaN without a word; that is a usage error. */
export function checkNumbers(args: Record<string, unknown>, known: KnownOptions, argv: readonly string[]): void {
  for (const key of known.numbers) {
    const values = ([] as unknown[]).concat(args[key] ?? []);
    if (!values.some((v) => typeof v === "number" && Number.isNaN(v))) continue;
    const names = [key, ...(known.aliases[key] ?? [])].map(dashed);
    const index = argv.findIndex((a) => names.includes(a.split("=")[0]!));
    const given =
      index < 0
        ? ""
        : argv[index]!.includes("=")
          ? argv[index]!.slice(argv[index]!.indexOf("=") + 1)
          : (argv[index + 1] ?? "");
    throw new UsageError(`Invalid values: Argument: ${key}, Given: "${given}": ${dashed(key)} needs a number`);
  }
}
