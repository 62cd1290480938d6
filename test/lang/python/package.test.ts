/**
 * URL values followed across a Python package: names imported from other
 * files, settings objects' fields, dataclass defaults, constructor keywords
 * and parameter defaults, and helpers that join a base and a path argument.
 */
import { describe, expect, it } from "vitest";
import { HOLE } from "../../../src/core/urls.js";
import { PyPackage } from "../../../src/lang/python/package.js";

/** The value of the last `url = …` in `file`. */
function urlIn(files: Record<string, string>, file: string): string {
  const values = new PyPackage(Object.keys(files), (f) => files[f]).valuesOf(file)!;
  const assignment = values.module.assignments.get("url")!.at(-1)!;
  return values.stringOf(assignment.value).replaceAll(HOLE, "?");
}

describe("Python values across a package", () => {
  it("follows a module imported with `from . import` to its constant and env default", () => {
    const files = {
      "bot/settings.py": 'import os\nAPI_BASE = os.environ.get("API_BASE", "https://api.example.com/v1")\n',
      "bot/client.py": 'from . import settings\nurl = settings.API_BASE + "/jobs"\n',
    };
    expect(urlIn(files, "bot/client.py")).toBe("https://api.example.com/v1/jobs");
  });

  it("reads a settings object's field default from the class body in another module, through a parameter default", () => {
    const files = {
      "src/app/config.py":
        'class Settings(BaseSettings):\n    base_url: str = "https://api.example.com"\n    token: str = ""\n\nsettings = Settings()\n',
      "src/app/client.py": [
        "from app.config import settings",
        "",
        "class Api:",
        "    def __init__(self, base_url: str = settings.base_url):",
        '        url = base_url + "/items"',
        "",
      ].join("\n"),
    };
    expect(urlIn(files, "src/app/client.py")).toBe("https://api.example.com/items");
  });

  it("follows Django's settings into the module a split settings file star-imports", () => {
    const files = {
      "manage.py": 'import os\nos.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")\n',
      "config/settings/base.py": 'API_BASE = "https://api.example.com/v1"\nDEBUG = False\n',
      "config/settings/production.py": "from .base import *  # noqa\nDEBUG = False\n",
      "shop/client.py": 'from django.conf import settings\nurl = settings.API_BASE + "/jobs"\n',
    };
    expect(urlIn(files, "shop/client.py")).toBe("https://api.example.com/v1/jobs");
  });

  it("prefers the constructor's keyword over the class default", () => {
    const files = {
      "cfg.py":
        'class Config:\n    base: str = "https://a.example.com"\n\nconfig = Config(base="https://b.example.com")\nurl = config.base + "/x"\n',
    };
    expect(urlIn(files, "cfg.py")).toBe("https://b.example.com/x");
  });

  it("evaluates a URL helper with the call's argument, through a dataclass field's declared type", () => {
    const files = {
      "c.py": [
        "@dataclass",
        "class Conf:",
        '    base_url: str = "https://api.example.com/api"',
        "",
        "@dataclass",
        "class Client:",
        "    conf: Conf",
        "",
        "    def _url(self, path):",
        '        return f"{self.conf.base_url}{path}"',
        "",
        "    def get(self, job_id):",
        '        url = self._url(f"/jobs?id={job_id}")',
        "",
      ].join("\n"),
    };
    expect(urlIn(files, "c.py")).toBe("https://api.example.com/api/jobs?id=?");
  });

  it("lets a parameter without a default hide the module constant of the same name", () => {
    const files = { "m.py": 'base = "https://api.example.com"\n\ndef build(base):\n    url = base + "/x"\n' };
    expect(urlIn(files, "m.py")).toBe("?/x");
  });

  it("reads Django's settings from the module manage.py names, else the shallowest settings.py", () => {
    const app = 'from django.conf import settings\nurl = settings.COMFY_BASE_URL + "/run"\n';
    const settings = (host: string): string =>
      `import os\nCOMFY_BASE_URL = os.environ.get("COMFY_BASE_URL", "${host}")\n`;
    const named = {
      "manage.py": 'os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site_cfg.prod")\n',
      "site_cfg/prod.py": settings("https://api.example.com"),
      "site_cfg/settings.py": settings("https://other.example.com"),
      "renders/services.py": app,
    };
    expect(urlIn(named, "renders/services.py")).toBe("https://api.example.com/run");
    const plain = { "mysite/settings.py": settings("https://api.example.com"), "renders/services.py": app };
    expect(urlIn(plain, "renders/services.py")).toBe("https://api.example.com/run");
    expect(urlIn({ "renders/services.py": app }, "renders/services.py")).toBe("?/run");
  });

  it("reads a query string urlencode builds from a dict as its keys", () => {
    const files = {
      "q.py": [
        "from urllib.parse import urlencode",
        'BASE = "https://api.example.com"',
        'url = BASE + "/run?" + urlencode({"run_id": run_id, "verbose": 1})',
      ].join("\n"),
    };
    expect(urlIn(files, "q.py")).toBe("https://api.example.com/run?run_id=?&verbose=?");
  });

  it("reads getattr(settings, NAME, default) as the setting where it is known, else the default", () => {
    const files = {
      "mysite/settings.py": 'COMFY_BASE = "https://api.example.com"\n',
      "a.py":
        'from django.conf import settings\nurl = getattr(settings, "COMFY_BASE", "https://b.example.com") + "/run"\n',
      "b.py": 'from django.conf import settings\nurl = getattr(settings, "OTHER", "https://b.example.com") + "/run"\n',
    };
    expect(urlIn(files, "a.py")).toBe("https://api.example.com/run");
    expect(urlIn(files, "b.py")).toBe("https://b.example.com/run");
  });

  it("reads a dict's entry under a literal key, in this module or a settings module", () => {
    const files = {
      "mysite/settings.py":
        'import os\nCOMFY = {"BASE_URL": os.environ.get("B", "https://api.example.com"), "KEY": ""}\n',
      "a.py": 'from django.conf import settings\nurl = settings.COMFY["BASE_URL"] + "/run"\n',
      "b.py": 'HOSTS = {"prod": "https://p.example.com", "dev": "http://localhost"}\nurl = HOSTS["prod"] + "/run"\n',
      "c.py": 'from django.conf import settings\nurl = settings.COMFY["MISSING"] + "/run"\n',
    };
    expect(urlIn(files, "a.py")).toBe("https://api.example.com/run");
    expect(urlIn(files, "b.py")).toBe("https://p.example.com/run");
    expect(urlIn(files, "c.py")).toBe("?/run");
  });
});
