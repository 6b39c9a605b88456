/**
 * An ID token's identity is compared with the bundle's members after lower-casing (docs/interface.md
 * section 9), and JavaScript lower-cases the Kelvin sign U+212A to an ASCII k and the Angstrom
 * sign U+212B to å. An identity provider that issues "\u212Aim@treasury.example" (another account
 * than kim's, if the provider allows the character) signed in as kim and approved as kim.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReviewerAuth } from "../../../src/review/auth.js";
import { groupsOf } from "../../../src/core/review/requirement.js";
import { startTestIssuer, type TestIssuer } from "../../support/oidc.js";

const bundle = {
  reviewers: {
    ops: [
      { identity: "kim@treasury.example", user: null },
      { identity: "åsa@treasury.example", user: null },
    ],
  },
};

describe("an ID token's identity", () => {
  let issuer: TestIssuer;
  let auth: ReviewerAuth;
  beforeAll(async () => {
    issuer = await startTestIssuer("countersign-review");
    auth = new ReviewerAuth({ oidc: { issuer: issuer.issuer, audience: "countersign-review", identityClaim: "email" }, tokens: [] });
  });
  afterAll(async () => issuer?.stop());

  it.each([["\u212Aim@treasury.example"], ["\u212Bsa@treasury.example"], ["kim@treasury.example\u200b"]])("%j, a spelling no member has, is refused", async (email) => {
    const result = await auth.authenticate(await issuer.idToken({ email, email_verified: true }));
    expect(result.ok ? groupsOf(bundle, result.value.identity) : result.error.code).toBe("UNAUTHORIZED");
  });

  it("the members' own spellings, in any case, sign in", async () => {
    for (const email of ["Kim@Treasury.example", "Åsa@treasury.example"]) {
      const result = await auth.authenticate(await issuer.idToken({ email, email_verified: true }));
      expect(result.ok && groupsOf(bundle, result.value.identity)).toEqual(["ops"]);
    }
  });
});
