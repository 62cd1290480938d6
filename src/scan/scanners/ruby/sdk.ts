/**
 * The `comfydeploy` Ruby gem, which only ever spoke V1 (no V2 Ruby SDK
 * exists): declared in a Gemfile, locked in Gemfile.lock, depended on in a
 * gemspec, loaded with `require`, or used through its client constant.
 * Every use is manual work: the way forward is raw HTTP on V2. Legacy URLs
 * in Ruby stay with the generic text scan.
 */
import { posix } from "node:path";
import { ENDPOINTS, HOSTS, RUBY_SDK, RUBY_SDK_SHAPES } from "../../../knowledge/migration.js";
import type { Finding } from "../../../core/finding.js";
import type { FileScanInput, FileScanner } from "../../scanner.js";
import { FindingSink } from "../../scanner-helpers.js";

type RubyFileRole = "gemfile" | "lockfile" | "gemspec" | "code";

export function rubyFileRole(file: string): RubyFileRole | undefined {
  const base = posix.basename(file);
  if (base === "Gemfile" || base === "gems.rb") return "gemfile";
  if (base === "Gemfile.lock" || base === "gems.locked") return "lockfile";
  if (base.endsWith(".gemspec")) return "gemspec";
  if (/\.(rb|rake|ru)$/.test(base) || base === "Rakefile") return "code";
  return undefined;
}

export const rubySdkScanner: FileScanner = {
  id: "ruby-sdk",
  matches: (file) => rubyFileRole(file) !== undefined,
  scan: scanRuby,
};

const GEM = RUBY_SDK.gemName;
const HTTP = `${ENDPOINTS.createRun.v2.method} ${HOSTS.v2.apiBase}${ENDPOINTS.createRun.v2.path} and ${ENDPOINTS.getRun.v2.method} ${HOSTS.v2.apiBase}${ENDPOINTS.getRun.v2.path} (Authorization: Bearer <key>; JSON keys stay snake_case)`;

function dependencyMessage(spec: string): string {
  return `gem ${GEM}${spec ? ` ${spec}` : ""} talks only to the V1 API and no V2 Ruby SDK exists: drop it and call V2 over HTTP: ${HTTP}.`;
}

function requireMessage(): string {
  return `require '${RUBY_SDK_SHAPES.requirePath}' loads the V1-only Ruby SDK (no V2 Ruby SDK exists): call V2 over HTTP instead: ${HTTP}.`;
}

function callMessage(method: string): string {
  return `run.${method} is a call of the V1-only Ruby SDK: send ${method === "create" ? `${ENDPOINTS.createRun.v2.method} ${HOSTS.v2.apiBase}${ENDPOINTS.createRun.v2.path}` : `${ENDPOINTS.getRun.v2.method} ${HOSTS.v2.apiBase}${ENDPOINTS.getRun.v2.path}`} over HTTP instead (Authorization: Bearer <key>; JSON keys stay snake_case).`;
}

function clientMessage(): string {
  return `${RUBY_SDK_SHAPES.clientConstant} is the V1-only Ruby SDK client: replace its run.create / run.get calls with HTTP requests: ${HTTP}.`;
}

const QUOTED_GEM = `(["'])(${GEM})\\1`;
/** `gem 'comfydeploy'`, `gem("comfydeploy", "~> 0.0.10")`. */
const GEMFILE_ENTRY = new RegExp(`^\\s*gem[\\s(]+${QUOTED_GEM}((?:\\s*,\\s*(["'])[^"']*\\4)*)`, "d");
/** `spec.add_dependency 'comfydeploy'`, `add_runtime_dependency`, `add_development_dependency`. */
const GEMSPEC_ENTRY = new RegExp(
  `\\badd_(?:runtime_|development_)?dependency[\\s(]+${QUOTED_GEM}((?:\\s*,\\s*(["'])[^"']*\\4)*)`,
  "d",
);
/** A spec (`    comfydeploy (0.0.10)`) or a top-level dependency (`  comfydeploy (~> 0.0.10)`, `  comfydeploy!`). */
const LOCK_ENTRY = new RegExp(`^( {2}| {4})(${GEM})(?: \\(([^)]*)\\))?(!)?\\s*$`, "d");
const REQUIRE = new RegExp(`\\brequire[\\s(]+(["'])(${GEM}(?:/[^"']*)?)\\1`, "d");
/** The client constant, top-level (`::OpenApiSDK::...` allowed) but not nested in another namespace. */
const CLIENT = new RegExp(`(?<!\\w|\\w::)${RUBY_SDK_SHAPES.clientConstant}(?!\\w)`, "g");
/** The gem's run calls (`client.run.create(body)`, `sdk.run.get(id)`), in a file that loads the gem. */
const GEM_CALL = /\.run\.(create|get)\b/dg;

export function scanRuby({ file, text }: FileScanInput): Finding[] {
  const role = rubyFileRole(file);
  if (!role) return [];
  const sink = new FindingSink(file, text);
  const lines = text.split("\n");
  let offset = 0;
  let section = "";
  let inBlockComment = false;
  const loadsGem = role === "code" && (REQUIRE.test(text) || new RegExp(CLIENT.source).test(text));
  for (const raw of lines) {
    const start = offset;
    offset += raw.length + 1;
    const line = raw.replace(/\r$/, "");
    if (role === "lockfile") {
      if (/^\S/.test(line)) section = line.trim();
      const m = LOCK_ENTRY.exec(line);
      // Under GEM/GIT/PATH, four spaces is a locked spec; six would be a dependency of another gem.
      const isSpec = m?.[1] === "    " && section !== "DEPENDENCIES";
      const isDependency = m?.[1] === "  " && section === "DEPENDENCIES";
      if (m && (isSpec || isDependency)) {
        const [s, e] = m.indices![2]!;
        const spec = m[3] ?? "";
        const where = isSpec ? "specs" : "DEPENDENCIES";
        const facts = { kind: "gem-dependency", spec, where, lockfile: true } as const;
        sink.atOffset(start + s, start + e, {
          ruleId: "v1-sdk-dependency",
          message: dependencyMessage(spec),
          fix: "manual",
          facts,
        });
      }
      continue;
    }
    // =begin/=end blocks and # comments are not code.
    if (/^=begin\b/.test(line)) inBlockComment = true;
    if (inBlockComment) {
      if (/^=end\b/.test(line)) inBlockComment = false;
      continue;
    }
    const code = stripComment(line);
    const entry = role === "gemfile" ? GEMFILE_ENTRY.exec(code) : role === "gemspec" ? GEMSPEC_ENTRY.exec(code) : null;
    if (entry) {
      const [s, e] = entry.indices![2]!;
      const spec = [...(entry[3] ?? "").matchAll(/(["'])([^"']*)\1/g)].map((v) => v[2]).join(", ");
      const facts = { kind: "gem-dependency", spec, where: role, lockfile: false } as const;
      sink.atOffset(start + s, start + e, {
        ruleId: "v1-sdk-dependency",
        message: dependencyMessage(spec),
        fix: "manual",
        facts,
      });
    }
    const required = REQUIRE.exec(code);
    if (required) {
      const [s, e] = required.indices![2]!;
      const facts = { kind: "ruby-sdk", require: required[2]! } as const;
      sink.atOffset(start + s, start + e, { ruleId: "v1-sdk-import", message: requireMessage(), fix: "manual", facts });
    }
    for (const m of loadsGem ? code.matchAll(GEM_CALL) : []) {
      const [s, e] = m.indices![1]!;
      const facts = { kind: "ruby-sdk", v1: `run.${m[1]}` } as const;
      sink.atOffset(start + s, start + e, { ruleId: "v1-sdk-call", message: callMessage(m[1]!), fix: "manual", facts });
    }
    for (const m of code.matchAll(CLIENT)) {
      const facts = { kind: "ruby-sdk", v1: RUBY_SDK_SHAPES.clientConstant } as const;
      sink.atOffset(start + m.index!, start + m.index! + m[0].length, {
        ruleId: "v1-sdk-client",
        message: clientMessage(),
        fix: "manual",
        facts,
      });
    }
  }
  return sink.findings;
}

/** The line up to a `#` comment (a `#` inside a string literal, as in "#{x}", is not one). */
function stripComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
    } else if (c === "#") {
      return line.slice(0, i);
    } else if (c === '"' || c === "'") {
      quote = c;
    }
  }
  return line;
}
