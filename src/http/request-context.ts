/** Gives every request an id (a caller's X-Request-Id when it is sane) used in logs and answers. */
import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import { withLogContext } from "../telemetry/log-context.js";

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export const requestContext: RequestHandler = (req, res, next) => {
  const given = req.get("x-request-id");
  const requestId = given && SANE_ID.test(given) ? given : randomUUID();
  res.locals.requestId = requestId;
  res.locals.startedAt = performance.now();
  res.setHeader("X-Request-Id", requestId);
  // Every log line written while this request is handled carries its id.
  withLogContext({ requestId }, next);
};
