import { describe, expect, it } from "vitest";
import { countingApprovers, isInitiator } from "./requirement.js";

const BOB_USER = "users/2d2e40r3";
// Bob's platform user is declared in one group only; the ops group lists him plainly.
const bundle = {
  reviewers: {
    "treasury-approvers": [
      { identity: "alice@treasury.example", user: null },
      { identity: "bob@treasury.example", user: BOB_USER },
    ],
    "ops-approvers": [
      { identity: "bob@treasury.example", user: null },
      { identity: "dave@treasury.example", user: null },
    ],
  },
};

describe("the initiator, whichever group lists them", () => {
  it("a user declared in one group makes the identity the initiator in every group", () => {
    expect(isInitiator(bundle, "bob@treasury.example", BOB_USER)).toBe(true);
    expect(countingApprovers(bundle, "ops-approvers", ["bob@treasury.example", "dave@treasury.example"], BOB_USER)).toEqual(["dave@treasury.example"]);
    expect(countingApprovers(bundle, "treasury-approvers", ["bob@treasury.example"], BOB_USER)).toEqual([]);
  });

  it("compares without case, users/<identity> as well as a declared user", () => {
    expect(isInitiator(bundle, "bob@treasury.example", BOB_USER.toUpperCase().replace("USERS/", "users/"))).toBe(true);
    expect(isInitiator(bundle, "dave@treasury.example", "users/Dave@Treasury.example")).toBe(true);
  });

  it("another user, or no initiator, is not the member", () => {
    expect(isInitiator(bundle, "bob@treasury.example", "users/someone-else")).toBe(false);
    expect(isInitiator(bundle, "alice@treasury.example", BOB_USER)).toBe(false);
    expect(isInitiator(bundle, "bob@treasury.example", null)).toBe(false);
    expect(countingApprovers(bundle, "ops-approvers", ["bob@treasury.example", "dave@treasury.example"], null)).toEqual(["bob@treasury.example", "dave@treasury.example"]);
  });
});
