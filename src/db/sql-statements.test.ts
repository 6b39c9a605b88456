import { describe, expect, it } from "vitest";
import { splitStatements } from "./sql-statements.js";

describe("splitStatements", () => {
  it("splits at semicolons outside quotes, dollar-quoted bodies and comments", () => {
    const source = [
      "-- a comment; not a statement",
      "create function f() returns text language plpgsql as $body$ begin return 'a;b'; end $body$;",
      "select 'it''s; one', \"odd;name\" from t; /* x; y */",
      "do $$ begin perform 1; end $$;",
      "",
    ].join("\n");
    expect(splitStatements(source)).toEqual([
      "-- a comment; not a statement\ncreate function f() returns text language plpgsql as $body$ begin return 'a;b'; end $body$",
      "select 'it''s; one', \"odd;name\" from t",
      "/* x; y */\ndo $$ begin perform 1; end $$",
    ]);
  });
});
