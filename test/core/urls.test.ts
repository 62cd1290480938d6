/** How URL text is read: hosts, API paths and bare hosts. */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS, findLegacyHostMentions, parseUrlText } from "../../src/core/urls.js";

describe("bare hosts", () => {
  it("counts a match pattern covering every path as the host itself", () => {
    expect(parseUrlText("https://www.comfydeploy.com/*", DEFAULT_HOSTS).bareHost).toBe(true);
    expect(findLegacyHostMentions('["https://www.comfydeploy.com/*"]', DEFAULT_HOSTS)[0]?.kind).toBe("bare");
  });

  it("keeps pages and other patterns apart", () => {
    expect(parseUrlText("https://www.comfydeploy.com/docs/*", DEFAULT_HOSTS).bareHost).toBe(false);
    expect(parseUrlText("https://www.comfydeploy.com/pricing", DEFAULT_HOSTS).bareHost).toBe(false);
    expect(parseUrlText("https://api.comfydeploy.com/*", DEFAULT_HOSTS).hostKind).toBe("current");
  });
});
