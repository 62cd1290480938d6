/** Known secrets are masked whatever their length, without mangling the words around them. */
import { describe, expect, it } from "vitest";
import { maskKnownSecrets } from "../../src/core/redact.js";

describe("maskKnownSecrets", () => {
  it.each([
    ["k", "the API refused token k (HTTP 401)", "the API refused token *** (HTTP 401)"],
    ["ab", 'Authorization: Bearer ab, {"token":"ab"}', 'Authorization: Bearer ***, {"token":"***"}'],
    ["a.b", "token a.b.", "token ***."],
  ])("masks a %j token where it stands alone", (secret, text, masked) => {
    expect(maskKnownSecrets(text, [secret])).toBe(masked);
  });

  it("leaves a short token inside longer words alone (that is not an echo of it)", () => {
    expect(maskKnownSecrets("the table has abc rows", ["ab"])).toBe("the table has abc rows");
  });

  it("masks a long token wherever it occurs, and the longer of two overlapping secrets whole", () => {
    expect(maskKnownSecrets("xghp_secret1234y", ["ghp_secret1234"])).toBe("x***y");
    expect(maskKnownSecrets("key ab-cdef-gh", ["ab", "ab-cdef-gh"])).toBe("key ***");
  });

  it("masks a secret in its JSON-escaped form too (reports printed as JSON)", () => {
    const secret = 'p"w\\d/9';
    const json = JSON.stringify({ reason: `the API refused ${secret}` });
    expect(json).not.toContain(secret);
    expect(maskKnownSecrets(json, [secret])).toBe(JSON.stringify({ reason: "the API refused ***" }));
  });

  it("ignores missing and empty secrets", () => {
    expect(maskKnownSecrets("nothing to hide", [undefined, ""])).toBe("nothing to hide");
  });
});
