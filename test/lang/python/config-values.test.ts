/**
 * URL values a Python package takes from outside its code: env reads
 * (the standard library, python-decouple, environs, django-environ) with the
 * fallback the code gives or the value the repository's env files set,
 * pydantic-settings fields, settings factories, and config documents
 * (YAML, TOML, JSON, INI) the code loads from the repository.
 */
import { describe, expect, it } from "vitest";
import { HOLE } from "../../../src/core/urls.js";
import { PyPackage } from "../../../src/lang/python/package.js";
import { parseIni } from "../../../src/lang/python/repo-sources.js";

const BASE = "https://api.example.com/v1";

/** The value of the last `url = …` in `file`; `env` is what the repository's env files set. */
function urlIn(files: Record<string, string>, file: string, env: Record<string, string> = {}): string {
  const pkg = new PyPackage(
    Object.keys(files).filter((f) => f.endsWith(".py")),
    (f) => files[f],
    { env: (name) => env[name], allFiles: Object.keys(files) },
  );
  const values = pkg.valuesOf(file)!;
  const assignment = values.module.assignments.get("url")!.at(-1)!;
  return values.stringOf(assignment.value).replaceAll(HOLE, "?");
}

describe("env reads", () => {
  it.each([
    ['os.environ["API_BASE"]'],
    ['os.getenv("API_BASE")'],
    ['os.environ.get("API_BASE")'],
    ['os.getenv("API_BASE", OTHER)'],
  ])("%s without a known fallback takes the value the env files set", (read) => {
    expect(urlIn({ "app/api.py": `import os\nurl = ${read} + "/jobs"\n` }, "app/api.py", { API_BASE: BASE })).toBe(
      `${BASE}/jobs`,
    );
  });

  it("keeps the code's own fallback over the env files, and stays unknown with neither", () => {
    const text = 'import os\nurl = os.getenv("API_BASE", "https://other.example.com") + "/jobs"\n';
    expect(urlIn({ "a.py": text }, "a.py", { API_BASE: BASE })).toBe("https://other.example.com/jobs");
    expect(urlIn({ "a.py": 'import os\nurl = os.environ["API_BASE"] + "/jobs"\n' }, "a.py")).toBe("?/jobs");
  });

  it.each([
    ["python-decouple", `from decouple import config\nBASE = config("API_BASE", default="${BASE}")\n`],
    ["python-decouple, positional default", `from decouple import config\nBASE = config("API_BASE", "${BASE}")\n`],
    [
      "Starlette's Config",
      `from starlette.config import Config\nconfig = Config(".env")\nBASE = config("API_BASE", cast=str, default="${BASE}")\n`,
    ],
    ["environs", `from environs import Env\nenv = Env()\nenv.read_env()\nBASE = env.str("API_BASE", "${BASE}")\n`],
    ["django-environ", `import environ\nenv = environ.Env()\nBASE = env("API_BASE", default="${BASE}")\n`],
  ])("reads the default of a %s read", (_name, settings) => {
    expect(
      urlIn(
        { "app/settings.py": settings, "app/api.py": 'from .settings import BASE\nurl = f"{BASE}/jobs"\n' },
        "app/api.py",
      ),
    ).toBe(`${BASE}/jobs`);
  });

  it("reads the default django-environ's scheme gives a variable", () => {
    const settings = `import environ\nenv = environ.Env(DEBUG=(bool, False), API_BASE=(str, "${BASE}"))\nBASE = env("API_BASE")\nOTHER = env.str("DEBUG")\n`;
    expect(
      urlIn({ "settings.py": settings, "api.py": 'from settings import BASE\nurl = BASE + "/jobs"\n' }, "api.py"),
    ).toBe(`${BASE}/jobs`);
  });

  it("reads an env reader's variable from the env files when the code gives no default", () => {
    const settings = "from decouple import config\nBASE = config('API_BASE')\n";
    expect(
      urlIn({ "settings.py": settings, "api.py": 'from settings import BASE\nurl = BASE + "/jobs"\n' }, "api.py", {
        API_BASE: BASE,
      }),
    ).toBe(`${BASE}/jobs`);
  });

  it("does not take a call named config that is no env reader", () => {
    const text = 'from app.util import config\nurl = config("API_BASE", "https://other.example.com") + "/jobs"\n';
    expect(urlIn({ "a.py": text }, "a.py", { API_BASE: BASE })).toBe("?/jobs");
  });
});

describe("settings classes", () => {
  it("reads a pydantic Field's default, positional or by keyword", () => {
    const config = [
      "class Settings(BaseSettings):",
      `    api_base: str = Field(default="${BASE}", validation_alias="API_BASE")`,
      `    other: str = Field("${BASE}/other")`,
      "    required: str = Field(..., alias='REQUIRED_BASE')",
      "",
      "settings = Settings()",
      "",
    ].join("\n");
    const files = {
      "app/config.py": config,
      "app/api.py": 'from app.config import settings\nurl = settings.api_base + "/jobs"\n',
    };
    expect(urlIn(files, "app/api.py")).toBe(`${BASE}/jobs`);
    files["app/api.py"] = 'from app.config import settings\nurl = settings.other + "/jobs"\n';
    expect(urlIn(files, "app/api.py")).toBe(`${BASE}/other/jobs`);
    files["app/api.py"] = 'from app.config import settings\nurl = settings.required + "/jobs"\n';
    expect(urlIn(files, "app/api.py", { REQUIRED_BASE: BASE })).toBe(`${BASE}/jobs`);
  });

  it("reads a BaseSettings field without default from the env files, with the class's env_prefix, case-insensitively", () => {
    const config = [
      "class Settings(BaseSettings):",
      '    model_config = SettingsConfigDict(env_file=".env", env_prefix="APP_")',
      "    api_base: str",
      "",
      "class Plain(BaseModel):",
      "    api_base: str",
      "",
      "settings = Settings()",
      "plain = Plain()",
      "",
    ].join("\n");
    const files = {
      "config.py": config,
      "api.py": 'from config import settings, plain\nurl = settings.api_base + "/jobs"\n',
    };
    expect(urlIn(files, "api.py", { APP_API_BASE: BASE })).toBe(`${BASE}/jobs`);
    // A plain model reads no environment.
    files["api.py"] = 'from config import settings, plain\nurl = plain.api_base + "/jobs"\n';
    expect(urlIn(files, "api.py", { API_BASE: BASE, APP_API_BASE: BASE })).toBe("?/jobs");
  });

  it("follows a settings factory (`@lru_cache def get_settings()`), called directly or through Depends", () => {
    const config = [
      "class Settings(BaseSettings):",
      `    api_base: str = "${BASE}"`,
      "",
      "@lru_cache",
      "def get_settings() -> Settings:",
      "    return Settings()",
      "",
    ].join("\n");
    const direct = 'from app.config import get_settings\nurl = f"{get_settings().api_base}/jobs"\n';
    expect(urlIn({ "app/config.py": config, "app/api.py": direct }, "app/api.py")).toBe(`${BASE}/jobs`);
    const local =
      "from app.config import get_settings\ndef send():\n    s = get_settings()\n    url = s.api_base + '/jobs'\n";
    expect(urlIn({ "app/config.py": config, "app/api.py": local }, "app/api.py")).toBe(`${BASE}/jobs`);
    const depends = [
      "from fastapi import Depends",
      "from app.config import get_settings",
      "def route(settings=Depends(get_settings)):",
      "    url = settings.api_base + '/jobs'",
      "",
    ].join("\n");
    expect(urlIn({ "app/config.py": config, "app/api.py": depends }, "app/api.py")).toBe(`${BASE}/jobs`);
  });
});

describe("config documents", () => {
  it("reads a YAML document loaded with `with open(…) as f` and indexed by keys, next to the module or at the root", () => {
    const code = [
      "import yaml",
      'with open("config.yaml") as f:',
      "    CONFIG = yaml.safe_load(f)",
      'url = CONFIG["comfy"]["base_url"] + "/jobs"',
      "",
    ].join("\n");
    const yaml = `comfy:\n  base_url: ${BASE}\n`;
    expect(urlIn({ "worker/run.py": code, "config.yaml": yaml }, "worker/run.py")).toBe(`${BASE}/jobs`);
    expect(urlIn({ "worker/run.py": code, "worker/config.yaml": yaml }, "worker/run.py")).toBe(`${BASE}/jobs`);
    // No such file in the repository: unknown.
    expect(urlIn({ "worker/run.py": code }, "worker/run.py")).toBe("?/jobs");
  });

  it("reads TOML and JSON documents through .get chains, a loader function and another module", () => {
    const toml = `[comfy]\nbase_url = "${BASE}"\n`;
    const loader = [
      "import tomllib",
      "from pathlib import Path",
      "",
      "def load_config():",
      '    with open(Path(__file__).parent / "settings.toml", "rb") as f:',
      "        return tomllib.load(f)",
      "",
      "CFG = load_config()",
      "",
    ].join("\n");
    const use = 'from app.conf import CFG\nurl = CFG.get("comfy", {}).get("base_url", "") + "/jobs"\n';
    expect(urlIn({ "app/conf.py": loader, "app/use.py": use, "app/settings.toml": toml }, "app/use.py")).toBe(
      `${BASE}/jobs`,
    );
    const json = `{ "comfy": { "base_url": "${BASE}" } }`;
    const code = 'import json\nurl = json.load(open("config.json"))["comfy"]["base_url"] + "/jobs"\n';
    expect(urlIn({ "a.py": code, "config.json": json }, "a.py")).toBe(`${BASE}/jobs`);
  });

  it("reads an INI file a ConfigParser reads, by subscript and by get(section, option)", () => {
    const ini = `[Comfy]\nBase_URL = ${BASE}\n`;
    const code = [
      "import configparser",
      "parser = configparser.ConfigParser()",
      'parser.read("settings.ini")',
      'A = parser["Comfy"]["base_url"]',
      'url = parser.get("Comfy", "base_url") + "/jobs"',
      "",
    ].join("\n");
    expect(urlIn({ "a.py": code, "settings.ini": ini }, "a.py")).toBe(`${BASE}/jobs`);
    expect(
      urlIn(
        {
          "a.py": code.replace("url = parser.get", "B = parser.get").replace(/$/, 'url = A + "/x"\n'),
          "settings.ini": ini,
        },
        "a.py",
      ),
    ).toBe(`${BASE}/x`);
  });

  it("parses configparser's format: sections, both separators, comments, continuation lines, keys lower-cased", () => {
    expect(parseIni("# c\n[a]\nKey = 1\nother: two\n  more\n; c\n[b]\nx=y\n")).toEqual({
      a: { key: "1", other: "two\nmore" },
      b: { x: "y" },
    });
  });
});
