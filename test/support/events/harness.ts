/**
 * A small express app on 127.0.0.1 port 0 mounting the events handler at POST /v1/events, over a
 * fresh migrated database, with effect callbacks that record their calls and can be made to fail.
 */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { createEventsHandler, type EventsHandlerDeps } from "../../../src/http/routes/events.js";
import type { Db } from "../../../src/database.js";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { eventKeys } from "../event-sender.js";
import { createTestDatabase, type TestDatabase } from "../postgres.js";

export interface EffectCalls {
  transactionFailed: Array<{ transactionName: string; state: string }>;
  transactionConfirmed: string[];
  walletChanged: string[];
  signatureRejected: number;
  logs: Array<{ level: "warn" | "info"; obj: object; msg: string }>;
  /** Make the next N effect calls throw. */
  failNext: number;
}

export interface EventsApp {
  url: string;
  calls: EffectCalls;
  close(): Promise<void>;
}

export async function startEventsApp(db: Db, options: Partial<Pick<EventsHandlerDeps, "maxBodyBytes">> = {}): Promise<EventsApp> {
  const { platform } = await eventKeys();
  const calls: EffectCalls = { transactionFailed: [], transactionConfirmed: [], walletChanged: [], signatureRejected: 0, logs: [], failNext: 0 };
  const maybeFail = () => {
    if (calls.failNext > 0) {
      calls.failNext--;
      throw new Error("effect unavailable (test)");
    }
  };
  const app = express();
  // Stands in for the app's request-context middleware.
  app.use((req, res, next) => {
    const given = req.get("x-test-request-id");
    if (given) res.locals.requestId = given;
    next();
  });
  app.post(
    "/v1/events",
    createEventsHandler({
      db,
      publicKey: platform.publicKey,
      ...options,
      onTransactionFailed: async (transactionName, state) => {
        calls.transactionFailed.push({ transactionName, state });
        maybeFail();
      },
      onTransactionConfirmed: async (transactionName) => {
        calls.transactionConfirmed.push(transactionName);
        maybeFail();
      },
      onWalletChanged: async (vault) => {
        calls.walletChanged.push(vault);
        maybeFail();
      },
      metrics: { signatureRejected: () => void calls.signatureRejected++ },
      logger: {
        warn: (obj, msg) => void calls.logs.push({ level: "warn", obj, msg }),
        info: (obj, msg) => void calls.logs.push({ level: "info", obj, msg }),
      },
    }),
  );
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/events`,
    calls,
    close: () => new Promise((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

/** An event body as the platform sends it. */
export type EventBody = { id: string; type: string } & Record<string, unknown>;

let counter = 0;

/** A unique event id per call, so tests sharing a database do not collide. */
export function eventId(): string {
  counter += 1;
  return `evt-${process.pid}-${Date.now()}-${counter}`;
}

export function stateUpdated(transactionName: string, newState: string, id = eventId()): EventBody {
  const vault = transactionName.split("/").slice(0, 2).join("/");
  return {
    id,
    vault,
    type: "TRANSACTION_STATE_UPDATED",
    resourceType: "TRANSACTION",
    resource: transactionName,
    details: { transactionStateUpdated: { newState } },
  };
}

export function transactionCreated(transactionName: string, id = eventId()): EventBody {
  const vault = transactionName.split("/").slice(0, 2).join("/");
  return { id, vault, type: "TRANSACTION_CREATED", resourceType: "TRANSACTION", resource: transactionName };
}

export function walletAddressCreated(vault: string, id = eventId()): EventBody {
  return {
    id,
    vault,
    type: "WALLET_ADDRESS_CREATED",
    resourceType: "WALLET_ADDRESS",
    resource: `${vault}/wallets/w1/addresses/a1`,
  };
}

/**
 * A suite's fresh database and events app, with the recorded effect calls reset before each test.
 * Read `db` and `app` inside tests (they are set once the suite's beforeAll has run).
 */
export function eventsSuite(): { readonly db: Db; readonly app: EventsApp } {
  const suite = {} as { db: Db; app: EventsApp; tdb: TestDatabase };
  beforeAll(async () => {
    suite.tdb = await createTestDatabase();
    suite.db = suite.tdb.handle.db;
    suite.app = await startEventsApp(suite.db);
  });
  afterAll(async () => {
    await suite.app?.close();
    await suite.tdb?.drop();
  });
  beforeEach(() => {
    suite.app.calls.transactionFailed.length = 0;
    suite.app.calls.transactionConfirmed.length = 0;
    suite.app.calls.walletChanged.length = 0;
    suite.app.calls.failNext = 0;
  });
  return suite;
}
