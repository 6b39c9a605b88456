import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it, vi } from "vitest";
import { chainOf, type ErrorHandler, type Handler, type HttpResponse } from "./front.js";

const request = () => ({}) as IncomingMessage;
const response = () => ({}) as ServerResponse;
const handler = (h: Handler) => h;
const onError = (h: ErrorHandler) => h;

describe("chainOf: a route's handlers run as express runs them", () => {
  it("runs the request handlers in order, each on next(), and gives them res.locals", () => {
    const seen: string[] = [];
    const first: Handler = (_req, res, next) => {
      res.locals.requestId = "r-1";
      seen.push("first");
      next();
    };
    const second: Handler = (_req, res) => void seen.push(`second ${String(res.locals.requestId)}`);
    const unused: ErrorHandler = (_error, _req, _res, _next) => void seen.push("error handler");
    chainOf([first, unused, second])(request(), response());
    expect(seen).toEqual(["first", "second r-1"]);
  });

  it("takes next(error) past the request handlers to the next error handler", () => {
    const skipped = vi.fn<Handler>();
    const caught = vi.fn<ErrorHandler>((_error, _req, _res, _next) => undefined);
    const failure = new Error("unreadable");
    chainOf([handler((_req, _res, next) => next(failure)), skipped, caught])(request(), response());
    expect(skipped).not.toHaveBeenCalled();
    expect(caught.mock.calls[0]?.[0]).toBe(failure);
  });

  it("gives a thrown error and a rejected promise to the next error handler, as express 5 does", async () => {
    const thrown = new Error("thrown");
    const rejected = new Error("rejected");
    const errors: unknown[] = [];
    const record: ErrorHandler = (error, _req, _res, _next) => void errors.push(error);
    chainOf([
      () => {
        throw thrown;
      },
      record,
    ])(request(), response());
    chainOf([() => Promise.reject(rejected), record])(request(), response());
    await vi.waitFor(() => expect(errors).toEqual([thrown, rejected]));
  });

  it("passes an error an error handler hands on to the one after it", () => {
    const last = vi.fn<ErrorHandler>((_error, _req, _res, _next) => undefined);
    const again = new Error("again");
    chainOf([handler((_req, _res, next) => next(new Error("first"))), onError((_error, _req, _res, next) => next(again)), last])(request(), response());
    expect(last.mock.calls[0]?.[0]).toBe(again);
  });

  it("keeps locals a response already has", () => {
    const res = response() as HttpResponse;
    res.locals = { requestId: "given" };
    let read: unknown;
    chainOf([handler((_req, r) => void (read = r.locals.requestId))])(request(), res);
    expect(read).toBe("given");
  });
});
