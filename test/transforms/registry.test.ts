/** The transform registry and the rule catalog agree: every fixable rule has one transform, and no transform claims a rule without a fix. */
import { describe, expect, it } from "vitest";
import { RULES } from "../../src/rules/catalog.js";
import { loadTransforms, TRANSFORM_IDS, TRANSFORM_METAS } from "../../transforms/index.js";

describe("transform registry", () => {
  it("gives every rule whose fix is auto or review exactly one transform", () => {
    const fixable = [...RULES.values()].filter((rule) => rule.fix !== "manual").map((rule) => rule.id);
    const owners = fixable.map((rule) => ({
      rule,
      transforms: TRANSFORM_METAS.filter((meta) => (meta.rules as readonly string[]).includes(rule)).map(
        (meta) => meta.id,
      ),
    }));
    expect(owners.filter((owner) => owner.transforms.length !== 1)).toEqual([]);
  });

  it("lets no transform claim a rule that is manual or unknown", () => {
    const claimed = TRANSFORM_METAS.flatMap((meta) =>
      meta.rules.map((id) => ({ transform: meta.id, rule: id, fix: RULES.get(id)?.fix })),
    );
    expect(claimed.filter((c) => c.fix === undefined || c.fix === "manual")).toEqual([]);
  });

  it("has unique ids, and parts for every transform it lists", async () => {
    expect(new Set(TRANSFORM_IDS).size).toBe(TRANSFORM_IDS.length);
    const loaded = await loadTransforms();
    expect(loaded.map((t) => t.id)).toEqual(TRANSFORM_IDS);
    for (const transform of loaded) expect(transform.parts.length).toBeGreaterThan(0);
  });
});
