import { describe, expect, it } from "vitest";
import {
  afterHashing,
  afterLooking,
  type BuildPlan,
  type PlanState,
  PlanTally,
  planBuild,
  planDocument,
  planPrune,
  planUpToDate,
  type ServiceToPlan,
  type StoredStamp,
  stampCheck,
  type UpToDateValues,
} from "../../src/build/buildPlan.js";
import type { SeenFile } from "../../src/build/fileState.js";
import type { RecordedCheck } from "../../src/build/stateParts.js";
import type { ServiceCheck } from "../../src/schedule/serviceCheck.js";
import { addDays } from "../../src/time/plainDate.js";

/** Three published days are enough to see a day roll. */
const MONDAY = ["2026-11-22", "2026-11-23", "2026-11-24"];
const TUESDAY = ["2026-11-23", "2026-11-24", "2026-11-25"];

const pi = (id: string, day: string) =>
  `radiodns/spi/3.1/id/rdns.example/${id}/${day.replaceAll("-", "")}_PI.xml`;

/** The span a build publishing `days` lays out: a day either side. */
const spanOf = (days: readonly string[]) => ({
  from: addDays(days[0] as string, -1),
  to: addDays(days[days.length - 1] as string, 1),
});

/** A service as the engine hands it to the plan: its check key covers its files, not the days. */
function service(id: string, files = "v1", days = MONDAY): ServiceToPlan {
  return {
    id,
    fqdn: "rdns.example",
    serviceIdentifier: id,
    inputs: `${id} ${files}`,
    checkKey: `${id} ${files}`,
    span: spanOf(days),
  };
}

const aCheck = (id: string, days = MONDAY): ServiceCheck => ({
  problems: [],
  given: [{ crid: `crid://${id}`, start: 0 }],
  dayByDay: {
    span: spanOf(days),
    load: [],
    days: {},
    majority: {},
    beyond: [],
    episodeLists: [],
  },
});
/** A check recorded before checks were split by day. */
const aCheckWithout = (id: string): ServiceCheck => ({ ...aCheck(id), dayByDay: undefined });
const fileOf = (path: string): SeenFile => ({ state: `state of ${path}`, digest: "d".repeat(64) });

/** The state a complete build of `services` over `days` leaves, its files untouched since. */
function builtWith(services: ServiceToPlan[], days = MONDAY): PlanState {
  const empty: PlanState = {
    force: false,
    recorded: new Map(),
    checks: new Map(),
    journaled: new Set(),
    observed: new Map(),
  };
  const plan = planBuild(empty, services, days);
  const recorded = new Map(
    plan.services.flatMap(({ documents }) =>
      documents.map(({ path, inputs }) => [path, { inputs, file: fileOf(path) }] as const),
    ),
  );
  return {
    ...empty,
    recorded,
    checks: new Map(
      services.map((s) => [s.id, { key: s.checkKey, span: s.span, check: aCheck(s.id, days) }]),
    ),
    observed: new Map([...recorded].map(([path, { file }]) => [path, file.state])),
  };
}

/** Each planned document's path and what happens to it, in one readable line. */
function outcomes(plan: BuildPlan): Record<string, string> {
  return Object.fromEntries(
    plan.services.flatMap(({ documents }) =>
      documents.map(({ path, decision }) => [
        path,
        decision.render === true ? decision.why : decision.render ? "hash" : "reused",
      ]),
    ),
  );
}

const checksOf = (plan: BuildPlan) =>
  Object.fromEntries(
    plan.services.map(({ id, check }) => [
      id,
      "reuse" in check
        ? "reused"
        : "roll" in check
          ? `rolled on, laying out ${check.days.join(" ")}`
          : check.layOut,
    ]),
  );

describe("planBuild", () => {
  it("on the next night renders each service's new day only, rolls every check on (laying out its new day and the two before), and prunes the day that left", () => {
    const monday = builtWith([service("news"), service("pop")]);
    const services = [service("news", "v1", TUESDAY), service("pop", "v1", TUESDAY)];
    const plan = planBuild(monday, services, TUESDAY);
    expect(outcomes(plan)).toEqual({
      [pi("news", "2026-11-23")]: "reused",
      [pi("news", "2026-11-24")]: "reused",
      [pi("news", "2026-11-25")]: "no earlier build recorded it",
      [pi("pop", "2026-11-23")]: "reused",
      [pi("pop", "2026-11-24")]: "reused",
      [pi("pop", "2026-11-25")]: "no earlier build recorded it",
    });
    expect(checksOf(plan)).toEqual({
      news: "rolled on, laying out 2026-11-24 2026-11-25 2026-11-26",
      pop: "rolled on, laying out 2026-11-24 2026-11-25 2026-11-26",
    });
    // The recorded check is handed to the schedule stage to be rolled on from.
    expect(plan.services[0]?.check).toMatchObject({ roll: aCheck("news") });
    const published = new Set(Object.keys(outcomes(plan)));
    expect(planPrune(monday.recorded.keys(), published, [])).toEqual([
      pi("news", "2026-11-22"),
      pi("pop", "2026-11-22"),
    ]);
  });

  it("rolls a check on over a missed night (its two new days), but lays a service out in full when its days went back, moved on too far, or its check is not split by day", () => {
    const monday = builtWith([service("news"), service("pop"), service("jazz")]);
    const later = (days: number) => MONDAY.map((day) => addDays(day, days));
    const oldShape = monday.checks.get("jazz");
    const state: PlanState = {
      ...monday,
      checks: new Map([
        ...monday.checks,
        ["jazz", { ...(oldShape as RecordedCheck), check: aCheckWithout("jazz") }],
      ]),
    };
    const checks = (days: string[]) =>
      checksOf(
        planBuild(
          state,
          ["news", "pop", "jazz"].map((id) => service(id, "v1", days)),
          days,
        ),
      );
    expect(checks(later(2))).toEqual({
      news: "rolled on, laying out 2026-11-24 2026-11-25 2026-11-26 2026-11-27",
      pop: "rolled on, laying out 2026-11-24 2026-11-25 2026-11-26 2026-11-27",
      jazz: "its recorded check is not split by day",
    });
    expect(checks(later(-1)).news).toBe("its days moved back, or on by more than 3 days");
    expect(checks(later(4)).news).toBe("its days moved back, or on by more than 3 days");
    // The same days: reused as recorded, split or not.
    expect(checks(MONDAY)).toEqual({ news: "reused", pop: "reused", jazz: "reused" });
  });

  it("after one service's files were edited renders that service's documents and lays out that service alone", () => {
    const monday = builtWith([service("news"), service("pop")]);
    const plan = planBuild(monday, [service("news"), service("pop", "v2")], MONDAY);
    const popDocuments = MONDAY.map((day) => pi("pop", day));
    for (const [path, outcome] of Object.entries(outcomes(plan))) {
      expect(outcome, path).toBe(popDocuments.includes(path) ? "its inputs changed" : "reused");
    }
    expect(checksOf(plan)).toEqual({
      news: "reused",
      pop: "its inputs changed",
    });
    // A reused check is the recorded one, handed to the schedule stage as it is.
    expect(plan.services[0]?.check).toEqual({ reuse: aCheck("news") });
  });

  it("renders and lays out a service added; prunes the files of one removed", () => {
    const monday = builtWith([service("news"), service("pop")]);
    const plan = planBuild(monday, [service("news"), service("jazz")], MONDAY);
    expect(checksOf(plan)).toEqual({ news: "reused", jazz: "no check recorded for it" });
    expect(plan.services[1]?.documents.map((d) => d.decision)).toEqual(
      MONDAY.map(() => ({ render: true, why: "no earlier build recorded it" })),
    );
    const published = new Set(Object.keys(outcomes(plan)));
    expect(planPrune(monday.recorded.keys(), published, [])).toEqual(
      MONDAY.map((day) => pi("pop", day)),
    );
    // --keep-going keeps a broken service's files: they are not pruned.
    const kept = MONDAY.map((day) => pi("pop", day));
    expect(planPrune(monday.recorded.keys(), published, kept)).toEqual([]);
  });

  it("with --force renders every document and lays out every service, whatever was recorded", () => {
    const monday = builtWith([service("news")]);
    const plan = planBuild({ ...monday, force: true }, [service("news")], MONDAY);
    expect(new Set(Object.values(outcomes(plan)))).toEqual(
      new Set(["--force renders every document"]),
    );
    expect(checksOf(plan)).toEqual({ news: "--force checks every service" });
  });

  it("renders a document a killed build journaled a version for, though its inputs are as recorded", () => {
    const monday = builtWith([service("news")]);
    const journaled = new Set([pi("news", "2026-11-23")]);
    const plan = planBuild({ ...monday, journaled }, [service("news")], MONDAY);
    expect(outcomes(plan)[pi("news", "2026-11-23")]).toBe(
      "a killed build journaled a version for it",
    );
    expect(outcomes(plan)[pi("news", "2026-11-22")]).toBe("reused");
  });
});

describe("planDocument, for a published file no longer as recorded", () => {
  const path = pi("news", "2026-11-23");
  const monday = builtWith([service("news")]);
  const inputs = monday.recorded.get(path)?.inputs ?? "";

  it("reuses it when its state is the recorded one, without reading it", () => {
    expect(planDocument(monday, path, inputs)).toEqual({ render: false, file: fileOf(path) });
  });

  it("renders it when it is gone", () => {
    const observed = new Map(monday.observed);
    observed.delete(path);
    expect(planDocument({ ...monday, observed }, path, inputs)).toEqual({
      render: true,
      why: "its published file is gone or not the one the last build wrote",
    });
  });

  it("leaves a changed state to its bytes: rendered if edited, reused if only restored", () => {
    const observed = new Map(monday.observed).set(path, "another state");
    const decision = planDocument({ ...monday, observed }, path, inputs);
    expect(decision).toEqual({ render: "hash", recorded: fileOf(path) });
    // Edited in place (same size, mtime put back): its bytes are not the recorded ones.
    expect(afterHashing(decision, undefined)).toEqual({
      render: true,
      why: "its published file is gone or not the one the last build wrote",
    });
    // Restored from a CI cache: new inode and times, the same bytes; recorded as seen now.
    const restored: SeenFile = { state: "another state", digest: fileOf(path).digest };
    expect(afterHashing(decision, restored)).toEqual({ render: false, file: restored });
  });

  it("never trusts a state recorded as unsettled: the file is hashed", () => {
    const recorded = new Map(monday.recorded).set(path, {
      inputs,
      file: { state: "", digest: fileOf(path).digest },
    });
    expect(planDocument({ ...monday, recorded }, path, inputs).render).toBe("hash");
  });
});

describe("planUpToDate and afterLooking", () => {
  const report = { today: "2026-11-23" };
  const si = "radiodns/spi/3.1/SI.xml";
  const pi23 = pi("news", "2026-11-23");
  const digest = "d".repeat(64);
  /** The stamp a complete build for 2026-11-23 in Zurich left; the SI file was not yet settled. */
  const stamp: StoredStamp = {
    check: stampCheck("fp1", "Europe/Zurich", "2026-11-23", report),
    timeZone: "Europe/Zurich",
    today: "2026-11-23",
    report,
    files: { [si]: ["", digest], [pi23]: ["s2", digest] },
  };
  const AT = Date.parse("2026-11-23T05:00:00Z");
  const sameDay: UpToDateValues = {
    unfinished: false,
    damaged: [],
    stamp,
    inputs: "fp1",
    today: "2026-11-23",
  };
  /** Both files as the up-to-date check finds them: SI hashed (settled an hour ago), PI by its state. */
  const asLeft = new Map<string, SeenFile>([
    [si, { state: "s1", digest, changedMs: AT - 3_600_000 }],
    [pi23, { state: "s2", digest }],
  ]);
  const why = (values: UpToDateValues) => {
    const plan = planUpToDate(values);
    return plan.upToDate === false ? plan.why : plan.upToDate;
  };
  /** The decision once the files were looked at. */
  const looked = (observed: ReadonlyMap<string, SeenFile | undefined>) => {
    const plan = planUpToDate(sameDay);
    if (plan.upToDate !== "look") throw new Error(`not asked to look: ${JSON.stringify(plan)}`);
    return afterLooking(plan, observed, AT);
  };

  it("asks to look at the stamped files only once everything else matches", () => {
    expect(planUpToDate(sameDay)).toEqual({
      upToDate: "look",
      report,
      files: new Map([
        [si, { state: "", digest }],
        [pi23, { state: "s2", digest }],
      ]),
    });
  });

  it("is up to date when every file is as left, and restates a file it had to hash", () => {
    expect(looked(asLeft)).toEqual({
      upToDate: true,
      report,
      files: [si, pi23],
      restated: new Map([[si, asLeft.get(si)]]),
    });
    // Hashed but changed less than SETTLED_MS ago: recorded as untrusted already, nothing to restate.
    const justWritten = new Map(asLeft).set(si, { state: "s1", digest, changedMs: AT - 1_000 });
    expect(looked(justWritten)).toMatchObject({ upToDate: true, restated: new Map() });
    // Restored a second ago (new inode, same bytes): its recorded state is no longer its own.
    const restored = new Map(asLeft).set(pi23, { state: "s9", digest, changedMs: AT - 1_000 });
    expect(looked(restored)).toMatchObject({
      upToDate: true,
      restated: new Map([
        [si, asLeft.get(si)],
        [pi23, restored.get(pi23)],
      ]),
    });
  });

  it("says why it is not, in the order a reader checks", () => {
    expect(why({ ...sameDay, unfinished: true })).toBe(
      "a build was killed or failed since the last complete one (its journal is there)",
    );
    expect(why({ ...sameDay, damaged: ["stamp is not a JSON object"] })).toMatch(
      /^a part of .*state.json was damaged: stamp is not a JSON object$/,
    );
    expect(why({ ...sameDay, stamp: undefined })).toMatch(/state.json holds no stamp$/);
    expect(why({ ...sameDay, today: "2026-11-24" })).toBe(
      "another local day: the last build was for 2026-11-23, this one is for 2026-11-24",
    );
    expect(why({ ...sameDay, today: undefined })).toBe(
      "the stamp names no time zone this runtime knows",
    );
    expect(why({ ...sameDay, inputs: "fp2" })).toMatch(
      /^the program, the data folder or the keys changed/,
    );
    // Named when the engine found which (inputChanges.ts).
    expect(why({ ...sameDay, inputs: "fp2", changed: "the program changed: code" })).toMatch(
      /^the program changed: code \(fingerprint fp2\)$/,
    );
    // A stamp whose day was moved on by hand no longer matches its check.
    const moved = { ...stamp, today: "2026-11-26" };
    expect(why({ ...sameDay, stamp: moved, today: "2026-11-26" })).toMatch(
      /or the stamp was altered \(fingerprint /,
    );
    const empty = { ...stamp, files: {} };
    expect(why({ ...sameDay, stamp: empty })).toMatch(/lists no files$/);
    // A file changed, gone or replaced; the engine stops looking at the first (the rest absent).
    const gone = new Map<string, SeenFile | undefined>([
      [si, asLeft.get(si)],
      [pi23, undefined],
    ]);
    expect(looked(gone)).toEqual({
      upToDate: false,
      why: `${pi23} is not as the last build left it (changed, gone or replaced)`,
    });
    expect(looked(new Map([[si, undefined]]))).toMatchObject({ upToDate: false });
  });
});

describe("PlanTally", () => {
  it("sums up the plan in one line: how many reused, how many rendered for what", () => {
    const tally = new PlanTally();
    expect(tally.describe()).toBe("0 reused; rendered: none planned");
    tally.count({ render: false, file: fileOf("a") });
    tally.count({ render: true, why: "its inputs changed" });
    tally.count({ render: true, why: "its inputs changed" });
    tally.count({ render: true, why: "no earlier build recorded it" });
    expect(tally.describe()).toBe(
      "1 reused; rendered: 2: its inputs changed; 1: no earlier build recorded it",
    );
  });
});
