/**
 * Fields every log line written during a piece of work carries (the request id of an HTTP
 * request), without passing them through every call: the logger reads them from here.
 */
import { AsyncLocalStorage } from "node:async_hooks";

type Fields = Readonly<Record<string, string>>;

const storage = new AsyncLocalStorage<Fields>();

export function withLogContext<T>(fields: Fields, work: () => T): T {
  return storage.run({ ...storage.getStore(), ...fields }, work);
}

export function logContext(): Fields {
  return storage.getStore() ?? {};
}
