/** Gives every request an id (a caller's X-Request-Id when it is sane) used in logs and answers. */
import { randomUUID } from "node:crypto";
import type { Handler } from "./front.js";

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is sane, else a fresh one. */
export function requestIdFrom(given: string | string[] | undefined): string {
  return typeof given === "string" && SANE_ID.test(given) ? given : randomUUID();
}

export const requestContext: Handler = (req, res, next) => {
  const requestId = requestIdFrom(req.headers["x-request-id"]);
  res.locals.requestId = requestId;
  res.locals.startedAt = performance.now();
  res.setHeader("X-Request-Id", requestId);
  // The lines this request's handlers write name it themselves (requestIdOf): an AsyncLocalStorage
  // scope would have done it for every line, at a price on every promise (checkout-guard.ts).
  next();
};
