import { describe, expect, it } from "vitest";
import type { PlanState } from "../../src/build/buildPlan.js";
import { planLogos } from "../../src/build/plannedLogos.js";

const HOUR = 3_600_000;
const NOW = Date.parse("2026-11-24T08:00:00Z");
const DIGEST = "d".repeat(64);
const CURRENT = "logos/provider/32x32-1111111111111111.png";
const OLD = "logos/provider/32x32-0000000000000000.png";

/** The state a build left that published CURRENT and OLD as logos and SI.xml. */
const documents: Record<string, [string, string, string]> = {
  [CURRENT]: [`logo ${CURRENT}`, "state-1", DIGEST],
  [OLD]: [`logo ${OLD}`, "state-2", DIGEST],
  "SI.xml": ["si inputs", "state-3", DIGEST],
};

function planState(force = false): PlanState {
  const recorded = new Map(
    Object.entries(documents).map(([path, [inputs, state, digest]]) => [
      path,
      { inputs, file: { state, digest } },
    ]),
  );
  return {
    force,
    recorded: force ? new Map() : recorded,
    checks: new Map(),
    journaled: new Set(),
    observed: new Map(Object.entries(documents).map(([path, [, state]]) => [path, state])),
  };
}

describe("the plan for the logos", () => {
  it("reuses a logo still named as recorded, like any document", () => {
    expect(planLogos(planState(), { documents, logos: {} }, [CURRENT], NOW)[0]).toEqual({
      path: CURRENT,
      decision: { render: false, file: { state: "state-1", digest: DIGEST } },
    });
  });

  it("keeps a logo no longer named from the build that first left it out until 48 h after", () => {
    const superseded = (logos: Record<string, number>, now: number) =>
      planLogos(planState(), { documents, logos }, [CURRENT], now).slice(1);
    const first = superseded({}, NOW);
    const kept = { render: "hash", recorded: { state: "state-2", digest: DIGEST } };
    expect(first).toEqual([{ path: OLD, decision: kept, since: NOW }]);
    const later = (hours: number) => superseded({ [OLD]: NOW }, NOW + hours * HOUR);
    expect(later(47.9)).toEqual([{ path: OLD, decision: kept, since: NOW }]);
    expect(later(48)).toEqual([]);
  });

  it("never counts from a time after the build's clock (a state written under a later --now)", () => {
    const planned = planLogos(
      planState(),
      { documents, logos: { [OLD]: NOW + 1000 * HOUR } },
      [CURRENT],
      NOW,
    );
    expect(planned.map(({ since }) => since)).toEqual([undefined, NOW]);
  });

  it("under --force, makes every named logo and checks every kept one by its bytes", () => {
    const planned = planLogos(planState(true), { documents, logos: {} }, [CURRENT], NOW);
    expect(planned.map(({ decision }) => decision)).toEqual([
      { render: true, why: "--force renders every document" },
      { render: "hash", recorded: { state: "", digest: DIGEST } },
    ]);
  });
});
