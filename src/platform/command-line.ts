/** The command line that reproduces a run, for reports: quoted for a POSIX shell. */

export function commandLine(argv: readonly string[] = process.argv.slice(2)): string {
  return ["npx", "comfydeploy-migrate", ...argv.map(shellQuote)].join(" ");
}

function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
