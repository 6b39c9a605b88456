/**
 * What the review API, the review page and the CLI (through the API) do with reviews: list them,
 * read one, approve or reject. One place, so the page and the API cannot disagree.
 *
 * Reading is for reviewers, as acting is (docs/interface.md section 9, NOT_A_REVIEWER): a valid
 * credential only says who someone is. Whoever is in no reviewer group of the bundle in force is
 * refused everything, reading or acting, before any review is looked up; a review is read by the members of the groups
 * its requirements name (those who may approve or reject it), and the list holds only those.
 */
import type { Db } from "../database.js";
import { AppError, err, ok, type Result } from "../core/errors.js";
import type { PolicyBundle } from "../core/policy/types.js";
import { actOnReview, notAReviewerOf, readReview, requiredGroupsOf, type ReviewVerb } from "./actions.js";
import { groupsOf } from "../core/review/requirement.js";
import { actionsOf, listReviews } from "./store.js";
import { normalIdentity, type ReviewState } from "../core/review/types.js";
import { reviewView, type ReviewView } from "./view.js";

/** The most reviews one list answer holds (newest first). */
export const REVIEW_LIST_LIMIT = 500;

export interface ReviewDeskDeps {
  db: Db;
  policy: { current(): PolicyBundle };
  clock: () => Date;
}

export class ReviewDesk {
  constructor(private readonly deps: ReviewDeskDeps) {}

  /** The reviewer groups of the bundle in force that list the identity; NOT_A_REVIEWER when none does. */
  reviewerGroups(identity: string, bundle: PolicyBundle = this.deps.policy.current()): Result<string[], AppError> {
    const groups = groupsOf(bundle, identity);
    return groups.length > 0 ? ok(groups) : err(new AppError("NOT_A_REVIEWER", `${normalIdentity(identity)} is in no reviewer group`));
  }

  /** The reviews some requirement of which names a group of the identity's, newest first. */
  async list(identity: string, state?: ReviewState): Promise<Result<ReviewView[], AppError>> {
    const bundle = this.deps.policy.current();
    const groups = this.reviewerGroups(identity, bundle);
    if (!groups.ok) return groups;
    const reviews = await listReviews(this.deps.db, REVIEW_LIST_LIMIT, groups.value);
    const actions = await actionsOf(this.deps.db, reviews);
    const now = this.deps.clock();
    const views = reviews.map((review) => reviewView({ review, actions: actions.get(review.transactionName) ?? [] }, now, bundle));
    return ok(state ? views.filter((v) => v.state === state) : views);
  }

  /** The transaction's review, for a member of a group its requirements name. */
  async get(transactionName: string, identity: string): Promise<Result<ReviewView, AppError>> {
    const bundle = this.deps.policy.current();
    const groups = this.reviewerGroups(identity, bundle);
    if (!groups.ok) return groups;
    const record = await readReview(this.deps.db, transactionName);
    if (!record) return err(new AppError("NOT_FOUND", "this transaction has no review"));
    if (requiredGroupsOf(record.review, bundle, identity).length === 0) return err(notAReviewerOf(identity));
    return ok(reviewView(record, this.deps.clock(), bundle));
  }

  async act(transactionName: string, identity: string, verb: ReviewVerb, comment: string | null): Promise<Result<ReviewView, AppError>> {
    const now = this.deps.clock();
    const bundle = this.deps.policy.current();
    // In no group at all: refused before the lookup, as a read is, so a 404 does not tell an outsider which names have a review.
    const groups = this.reviewerGroups(identity, bundle);
    if (!groups.ok) return groups;
    const done = await actOnReview(this.deps.db, { transactionName, identity, verb, comment, bundle, now });
    return done.ok ? ok(reviewView(done.value, now, bundle)) : done;
  }
}
