/**
 * The decision's statement batches (src/db/pipeline.ts) on both databases: a batch answers with its
 * last statement's rows, parameters arrive intact (PGlite writes them into its one text as
 * literals), and a failing statement rejects the batch and leaves a connection that rolls back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../../src/database.js";
import { withPipeline } from "../../../src/db/pipeline.js";
import { backends } from "../../support/backends.js";

for (const backend of backends) {
  describe(`statement batches on ${backend.name}`, () => {
    let db: Db;
    let close: () => Promise<void>;
    beforeAll(async () => ({ db, close } = await backend.open()));
    afterAll(async () => close?.());

    it("answers with the last statement's rows, parameters intact", async () => {
      // Values come from bodies (names, addresses in group keys): none may leave its literal.
      const awkward = `it's a \\ back'slash "and" $1 $$ quote'); select 1/0; --\\'`;
      const rows = await withPipeline(db, async (p) => {
        const answer = await p.send([{ text: "begin" }, { name: "cs_test_echo", text: "select $1::text as a, $2::text as b", values: [awkward, '{"k": 1}'] }]);
        await p.send([{ text: "commit" }]);
        return answer;
      });
      expect(rows).toEqual([{ a: awkward, b: '{"k": 1}' }]);
    });

    it("rejects a batch whose statement fails, and the connection rolls back and serves the next work", async () => {
      await expect(
        withPipeline(db, async (p) => {
          try {
            await p.send([{ text: "begin" }, { text: "select 1/0 as x" }, { text: "select 1 as y" }]);
          } finally {
            await p.send([{ text: "rollback" }]);
          }
        }),
      ).rejects.toThrow(/division by zero/);
      const rows = await withPipeline(db, (p) => p.send([{ text: "select 2 as z" }]));
      expect(rows).toEqual([{ z: 2 }]);
    });
  });
}
