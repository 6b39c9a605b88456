import { describe, expect, it } from "vitest";
import type { PolicyBundle } from "../policy/types.js";
import { reviewFacts } from "../../review/facts.js";
import { initiatorNote, needs } from "../../review/needs.js";
import { approvalsNeeded, countingApprovers, initiatorUnrecognised, isInitiator, withoutInitiator } from "./requirement.js";

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
  });
});

describe("an initiator the body does not name", () => {
  it("could be any approver: the one that counts least is taken out, so a quorum needs one more", () => {
    expect(countingApprovers(bundle, "ops-approvers", ["bob@treasury.example", "dave@treasury.example"], null)).toHaveLength(1);
    expect(countingApprovers(bundle, "ops-approvers", ["dave@treasury.example"], "")).toEqual([]);
    expect(approvalsNeeded(bundle, "ops-approvers", 2, null)).toBe(3);
    expect(approvalsNeeded(bundle, "ops-approvers", 2, BOB_USER)).toBe(2);
  });

  it("could be a platform user the bundle gives two identities: both are taken out", () => {
    const shared = {
      reviewers: {
        ops: [
          { identity: "erin@treasury.example", user: "users/ops-desk" },
          { identity: "frank@treasury.example", user: "users/ops-desk" },
          { identity: "gina@treasury.example", user: null },
        ],
      },
    };
    const all = ["erin@treasury.example", "frank@treasury.example", "gina@treasury.example"];
    expect(countingApprovers(shared, "ops", all, null)).toEqual(["gina@treasury.example"]);
  });

  it("leaves the facts listing every member's approval, and counting only those certain to be another's", () => {
    const policy = { ...bundle, rules: [] } as unknown as PolicyBundle;
    const facts = reviewFacts(
      policy,
      "open",
      [
        { identity: "bob@treasury.example", group: "ops-approvers" },
        { identity: "dave@treasury.example", group: "ops-approvers" },
      ],
      null,
    );
    expect(facts).toEqual({ state: "open", approvals: 1, approvers: ["bob@treasury.example", "dave@treasury.example"] });
  });
});

describe("an initiator the body names but no member is recognised as", () => {
  // users/9f3k2 may be alice or dave, who have no declared user; bob is certainly users/2d2e40r3.
  const UNMAPPED = "users/9f3k2";
  const [ALICE, BOB, DAVE] = ["alice@treasury.example", "bob@treasury.example", "dave@treasury.example"];

  it("is recognised when a member's user, in any group, or a users/<identity> is it", () => {
    expect(initiatorUnrecognised(bundle, UNMAPPED)).toBe(true);
    expect(initiatorUnrecognised(bundle, BOB_USER)).toBe(false);
    expect(initiatorUnrecognised(bundle, `users/${DAVE}`)).toBe(false);
    expect(initiatorUnrecognised(bundle, null)).toBe(false);
  });

  it("a recognised initiator is taken out, and only them: the rule's quorum", () => {
    expect(countingApprovers(bundle, "treasury-approvers", [ALICE, BOB], BOB_USER)).toEqual([ALICE]);
    expect(approvalsNeeded(bundle, "treasury-approvers", 1, BOB_USER)).toBe(1);
  });

  it("could be any approver without a declared user: one of them is taken out", () => {
    expect(countingApprovers(bundle, "ops-approvers", [DAVE], UNMAPPED)).toEqual([]);
    expect(countingApprovers(bundle, "treasury-approvers", [ALICE], UNMAPPED)).toEqual([]);
    // bob's user is declared in treasury-approvers only; it holds in ops-approvers too.
    expect(countingApprovers(bundle, "ops-approvers", [BOB, DAVE], UNMAPPED)).toEqual([BOB]);
    expect(withoutInitiator(bundle, [ALICE, DAVE], UNMAPPED)).toHaveLength(1);
  });

  it("is not any approver with a declared user: they count fully", () => {
    expect(countingApprovers(bundle, "treasury-approvers", [BOB], UNMAPPED)).toEqual([BOB]);
    const mapped = {
      reviewers: {
        desk: [
          { identity: BOB, user: BOB_USER },
          { identity: "erin@treasury.example", user: "users/e1" },
        ],
      },
    };
    expect(countingApprovers(mapped, "desk", [BOB, "erin@treasury.example"], UNMAPPED)).toEqual([BOB, "erin@treasury.example"]);
  });

  it("needs one more while an approver without a user approved or still could, and says both counts", () => {
    expect(approvalsNeeded(bundle, "treasury-approvers", 1, UNMAPPED)).toBe(2);
    expect(approvalsNeeded(bundle, "treasury-approvers", 1, UNMAPPED, [ALICE])).toBe(2);
    expect(approvalsNeeded(bundle, "treasury-approvers", 1, UNMAPPED, [BOB])).toBe(1);
    expect(approvalsNeeded(bundle, "treasury-approvers", 1, UNMAPPED, [BOB, ALICE])).toBe(2);
    const mapped = {
      reviewers: {
        desk: [
          { identity: BOB, user: BOB_USER },
          { identity: "erin@treasury.example", user: "users/e1" },
        ],
      },
    };
    expect(approvalsNeeded(mapped, "desk", 1, UNMAPPED)).toBe(1);
    expect(needs(bundle, "treasury-approvers", 1, UNMAPPED)).toBe("2 of treasury-approvers, or 1 if every approver has a user");
    expect(initiatorNote(bundle, "treasury-approvers", UNMAPPED)).toBe(" (the initiator users/9f3k2 is no member's user: any approver without a user could be them)");
    expect(needs(mapped, "desk", 1, UNMAPPED) + initiatorNote(mapped, "desk", UNMAPPED)).toBe("1 of desk");
    // Only bob's user is declared: two approvers who all have one cannot be found.
    expect(needs(bundle, "treasury-approvers", 2, UNMAPPED)).toBe("3 of treasury-approvers");
  });

  it("leaves the facts listing every member's approval, and counting one fewer", () => {
    const policy = { ...bundle, rules: [] } as unknown as PolicyBundle;
    const facts = reviewFacts(
      policy,
      "open",
      [
        { identity: ALICE, group: "treasury-approvers" },
        { identity: BOB, group: "treasury-approvers" },
      ],
      UNMAPPED,
    );
    expect(facts).toEqual({ state: "open", approvals: 1, approvers: [ALICE, BOB] });
  });
});
