import { describe, expect, it } from "vitest";
import { createCircuit } from "./circuit.js";

function circuitAt(threshold = 3, openMs = 1_000) {
  const clock = { t: 0 };
  return { clock, circuit: createCircuit({ threshold, openMs, now: () => clock.t }) };
}

describe("the platform check's circuit", () => {
  it("stays closed below the threshold of failures in a row, and a success resets the count", () => {
    const { circuit } = circuitAt(3);
    circuit.failed();
    circuit.failed();
    circuit.succeeded();
    circuit.failed();
    circuit.failed();
    expect(circuit.state()).toBe("closed");
    expect(circuit.allow()).toBe(true);
  });

  it("opens at the threshold and refuses every check until the pause is over", () => {
    const { clock, circuit } = circuitAt(3, 1_000);
    for (let i = 0; i < 3; i++) circuit.failed();
    expect(circuit.state()).toBe("open");
    clock.t = 999;
    expect(circuit.allow()).toBe(false);
  });

  it("after the pause lets exactly one check through, which closes it on success", () => {
    const { clock, circuit } = circuitAt(1, 1_000);
    circuit.failed();
    clock.t = 1_000;
    expect(circuit.state()).toBe("half-open");
    expect(circuit.allow()).toBe(true);
    expect(circuit.allow()).toBe(false);
    circuit.succeeded();
    expect(circuit.state()).toBe("closed");
    expect(circuit.allow()).toBe(true);
  });

  it("opens for another pause when the trial check fails", () => {
    const { clock, circuit } = circuitAt(3, 1_000);
    for (let i = 0; i < 3; i++) circuit.failed();
    clock.t = 1_500;
    expect(circuit.allow()).toBe(true);
    circuit.failed();
    expect(circuit.state()).toBe("open");
    clock.t = 2_499;
    expect(circuit.allow()).toBe(false);
    clock.t = 2_500;
    expect(circuit.allow()).toBe(true);
  });
});
