import { describe, expect, it } from "vitest";
import { prometheusUnit } from "./prometheus-names.js";

describe("prometheusUnit: the suffix a unit gives a Prometheus name", () => {
  it.each([
    ["s", "seconds"],
    ["ms", "milliseconds"],
    ["By", "bytes"],
    ["1", "ratio"],
    ["By/s", "bytes_per_second"],
    ["{decision}", undefined],
    ["{decision}/s", undefined],
    ["By/furlong", undefined],
    ["{row}/s", undefined],
    ["", undefined],
    ["furlong", undefined],
  ])("%j -> %s", (unit, suffix) => {
    expect(prometheusUnit(unit)).toBe(suffix);
  });
});
