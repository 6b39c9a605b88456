/**
 * What the review API, the review page and the CLI (through the API) do with reviews: list them,
 * read one, approve or reject. One place, so the page and the API cannot disagree.
 */
import type { Db } from "../db/connect.js";
import type { AppError, Result } from "../errors.js";
import { ok } from "../errors.js";
import type { PolicyBundle } from "../policy/types.js";
import { actOnReview, readReview, type ReviewVerb } from "./actions.js";
import { actionsOf, listReviews } from "./store.js";
import type { ReviewState } from "./types.js";
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

  async list(state?: ReviewState): Promise<ReviewView[]> {
    const reviews = await listReviews(this.deps.db, REVIEW_LIST_LIMIT);
    const actions = await actionsOf(this.deps.db, reviews);
    const now = this.deps.clock();
    const bundle = this.deps.policy.current();
    const views = reviews.map((review) => reviewView({ review, actions: actions.get(review.transactionName) ?? [] }, now, bundle));
    return state ? views.filter((v) => v.state === state) : views;
  }

  async get(transactionName: string): Promise<ReviewView | undefined> {
    const record = await readReview(this.deps.db, transactionName);
    return record ? reviewView(record, this.deps.clock(), this.deps.policy.current()) : undefined;
  }

  async act(transactionName: string, identity: string, verb: ReviewVerb, comment: string | null): Promise<Result<ReviewView, AppError>> {
    const now = this.deps.clock();
    const bundle = this.deps.policy.current();
    const done = await actOnReview(this.deps.db, { transactionName, identity, verb, comment, bundle, now });
    return done.ok ? ok(reviewView(done.value, now, bundle)) : done;
  }
}
