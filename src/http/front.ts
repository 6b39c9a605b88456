/**
 * The co-signer's webhook served from node:http without express's dispatch, by the same handler
 * functions express runs for its route (app.ts builds the list once for both).
 *
 * express's per-request work (the application's and router's dispatch, the request and response
 * given express's prototypes, each layer's match) cost this path about a fifth of the service's
 * CPU per decision (docs/performance.md, "The webhook's handlers without express's dispatch"). The handlers here are written
 * against node's request and response, with the two additions they read, `res.locals` and
 * `req.body`, so one function serves both; the request id, the token check, the body reader and
 * the error envelope exist once.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** What a handler may read of a request: node's, and the body a body reader left on it. */
export type HttpRequest = IncomingMessage & { body?: unknown };
/** What a handler may use of an answer: node's, and the request's locals (its id, its start). */
export type HttpResponse = ServerResponse & { locals: Record<string, unknown> };
export type Next = (error?: unknown) => void;
export type Handler = (req: HttpRequest, res: HttpResponse, next: Next) => unknown;
export type ErrorHandler = (error: unknown, req: HttpRequest, res: HttpResponse, next: Next) => unknown;

/**
 * Runs `handlers` in order as express runs a route's: `next()` goes to the next request handler,
 * `next(error)` (any truthy value, as in express), a throw or a rejected promise to the next error
 * handler (four parameters). The list ends with handlers that answer, so every request is answered.
 */
export function chainOf(handlers: readonly (Handler | ErrorHandler)[]): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const response = res as HttpResponse;
    response.locals ??= Object.create(null) as Record<string, unknown>;
    let index = 0;
    const next: Next = (error) => {
      const failed = Boolean(error);
      while (index < handlers.length) {
        const handler = handlers[index++]!;
        if (failed !== (handler.length === 4)) continue;
        try {
          const returned = !failed ? (handler as Handler)(req, response, next) : (handler as ErrorHandler)(error, req, response, next);
          if (returned instanceof Promise) returned.catch((thrown: unknown) => next(thrown || new Error("rejected promise")));
        } catch (thrown) {
          next(thrown);
        }
        return;
      }
    };
    next();
  };
}
