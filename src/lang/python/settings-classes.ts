/**
 * pydantic-settings classes (`class Settings(BaseSettings)`): which
 * environment variables a field reads. A field takes the variable named
 * after it (with the class's `env_prefix`, from `model_config =
 * SettingsConfigDict(…)` or a nested `class Config`), or the one its
 * `Field(validation_alias=…)`, `alias=` or (pydantic 1) `env=` names;
 * names match without regard to case.
 */
import { attributeLine, classAttribute, classesOf, classNamed, type PyClass } from "./classes.js";
import type { PyModule } from "./module.js";
import { isName, isOp, isString, stringValue } from "./tokens.js";

const SETTINGS_BASE = /(?:^|\.)BaseSettings$/;
const ALIAS_KEYWORDS = ["validation_alias", "alias", "env"];

/** The variables a settings class's field reads, in the order pydantic tries them; undefined for other classes. */
export function settingsFieldVariables(module: PyModule, cls: PyClass, name: string): string[] | undefined {
  if (!isSettingsClass(module, cls, new Set())) return undefined;
  const line = attributeLine(module, cls, name);
  if (!line) return undefined;
  const t = module.tokens;
  for (let i = line.lo; i < line.hi; i++) {
    if (!isName(t[i], "Field") || !isOp(t[i + 1], "(")) continue;
    const keyword = module.callArguments(i + 1).keyword;
    for (const key of ALIAS_KEYWORDS) {
      const alias = keyword.get(key);
      const token = alias && alias.hi - alias.lo === 1 ? t[alias.lo] : undefined;
      if (isString(token)) return [stringValue(module.text, token)];
    }
  }
  return [`${envPrefix(module, cls)}${name}`];
}

function isSettingsClass(module: PyModule, cls: PyClass, seen: Set<PyClass>): boolean {
  seen.add(cls);
  return cls.bases.some((base) => {
    if (SETTINGS_BASE.test(base)) return true;
    const parent = classNamed(module, base);
    return parent !== undefined && !seen.has(parent) && isSettingsClass(module, parent, seen);
  });
}

/** `model_config = SettingsConfigDict(env_prefix="APP_")` or `class Config: env_prefix = "APP_"`. */
function envPrefix(module: PyModule, cls: PyClass): string {
  const t = module.tokens;
  const config = classAttribute(module, cls, "model_config")?.value;
  const open = config ? config.lo + 1 : -1;
  if (config && isOp(t[open], "(") && module.partner(open) === config.hi - 1) {
    const prefix = module.callArguments(open).keyword.get("env_prefix");
    const token = prefix && prefix.hi - prefix.lo === 1 ? t[prefix.lo] : undefined;
    if (isString(token)) return stringValue(module.text, token);
  }
  const inner = classesOf(module).find((c) => c.name === "Config" && c.start > cls.start && c.end <= cls.end);
  const value = inner && classAttribute(module, inner, "env_prefix")?.value;
  const token = value && value.hi - value.lo === 1 ? t[value.lo] : undefined;
  return isString(token) ? stringValue(module.text, token) : "";
}
