import { createHash } from "node:crypto";
import type { ServiceRoutes } from "../edge/edgeFiles.js";
import type { InputProblem } from "../load/text/inputProblem.js";
import type { DayByDayCheck, LayoutSpan, ServiceCheck } from "../schedule/serviceCheck.js";
import { isSitePath } from "./ownershipManifest.js";

/**
 * Every part of state.json (buildState.ts) as stored, each with the one validator it must pass
 * when read and what the build does without it. A part that fails (or whose sum, written beside
 * it, is not its content's: a flipped byte) is dropped whole and its work done again, never
 * read as a change: a damaged record of a data file's digest is not the data file changing.
 * Hand-written rather than zod: importing zod takes ~150 ms, more than an up-to-date nightly's
 * whole check (0.06 s), which reads every part.
 */
export interface StateParts {
  /** ownershipManifest.ts: the files the last complete build owns. */
  owned: string[];
  /** documentVersions.ts: per SI and PI path, the version published and its content's digest. */
  versions: Record<string, DocumentRecord>;
  /** inputsRecord.ts: per document, its inputs and its file as published. */
  documents: Record<string, [inputs: string, state: string, digest: string]>;
  /** checkRecord.ts: per service id, its check under the key it was made with. */
  checks: Record<string, RecordedCheck>;
  /** digestRecord.ts: per data file (device:inode), its state and digest. */
  digests: Record<string, [state: string, digest: string]>;
  /** keptServices.ts: per service id, what it was published as. */
  services: Record<string, ServiceRoutes>;
  /** plannedLogos.ts: per logo no longer named, when a build first left it out (UTC ms). */
  logos: Record<string, number>;
  /** buildStamp.ts: what the last error-free build was made from; null after one with errors. */
  stamp: StoredStamp | null;
}

/** A service's check as the last build recorded it, under the key it was made with. */
export interface RecordedCheck {
  key: string;
  /** The days it was laid out for. */
  span: LayoutSpan;
  check: ServiceCheck;
}

export interface DocumentRecord {
  version: number;
  /** contentDigest (publish/sameDocument.ts) of the bytes published with that version. */
  content: string;
}

export interface StoredStamp {
  /** buildPlan.ts stampCheck(): the inputs, the day and the report, so that none can move alone. */
  check: string;
  timeZone: string;
  today: string;
  report: unknown;
  files: Record<string, [state: string, digest: string]>;
  /** buildFingerprint.ts BuildSources: trusted only when `check` vouches for them (buildStamp.ts). */
  sources?: unknown;
}

export type PartName = keyof StateParts;

/** The parts in the order they are written, one a line. */
export const PART_NAMES: readonly PartName[] = [
  "owned",
  "versions",
  "documents",
  "checks",
  "digests",
  "services",
  "logos",
  "stamp",
];

/** What a build without a part has: the state of a first build (new objects: owners change them). */
export function emptyParts(): StateParts {
  return {
    owned: [],
    versions: {},
    documents: {},
    checks: {},
    digests: {},
    services: {},
    logos: {},
    stamp: null,
  };
}

/** What the build did instead of using a part it dropped: said in the build's notes. */
export const INSTEAD: Record<PartName, string> = {
  owned:
    "the files earlier builds wrote and this one does not write again count as foreign and are left alone",
  versions:
    "versions go on from the published files' own, and a document without one starts at the build's clock",
  documents: "every document was rendered and compared with its published file",
  checks: "every service was laid out and checked again",
  digests: "every data file was read and hashed again",
  services: "a broken service's files were looked for under the provider's host and its id",
  logos: "logos no longer named are kept 48 h from this build",
  stamp: "the build was not taken as up to date",
};

const HEX64 = /^[0-9a-f]{64}$/;
/** A radiodnsKey (site/siteContract.ts): `<fqdn>/<serviceIdentifier>`. */
const ROUTE_KEY = /^[^/\s]+\/[^/\s]+$/;

type Check<T> = (value: unknown) => value is T;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === "string";
const isCount = (value: unknown): value is number =>
  Number.isSafeInteger(value) && (value as number) >= 0;
const listOf =
  <T>(item: Check<T>): Check<T[]> =>
  (value): value is T[] =>
    Array.isArray(value) && value.every(item);
const recordOf =
  <T>(entry: Check<T>): Check<Record<string, T>> =>
  (value): value is Record<string, T> =>
    isObject(value) && Object.values(value).every(entry);
const tupleOf =
  <T extends unknown[]>(...items: { [K in keyof T]: Check<T[K]> }): Check<T> =>
  (value): value is T =>
    Array.isArray(value) &&
    value.length === items.length &&
    items.every((item, i) => item(value[i]));
const fileState = tupleOf<[string, string]>(
  isString,
  (digest): digest is string => isString(digest) && (digest === "" || HEX64.test(digest)),
);

const isSpan = (value: unknown): value is LayoutSpan =>
  isObject(value) && isString(value.from) && isString(value.to);

/** A problem as the load and schedule stages make them: what a build prints for it. */
const isProblem = (value: unknown): value is InputProblem =>
  isObject(value) &&
  isString(value.file) &&
  isCount(value.line) &&
  isCount(value.column) &&
  isString(value.field) &&
  (value.severity === "error" || value.severity === "warning") &&
  isString(value.message);
const problems = listOf(isProblem);

// Each made once: a validator runs on every entry of every part of every build.
const dayParts = recordOf(
  (day): day is object => isObject(day) && problems(day.attach) && problems(day.parts),
);
const majority = recordOf(isProblem);
const beyond = listOf(tupleOf<[string, InputProblem[]]>(isString, problems));
const dates = tupleOf<[string, string]>(isString, isString);
const episodeLists = listOf(
  (value): value is [string, string] | null => value === null || dates(value),
);
const givens = listOf(
  (given): given is object =>
    isObject(given) && isString(given.crid) && typeof given.start === "number",
);

const isDayByDay = (value: unknown): value is DayByDayCheck =>
  isObject(value) &&
  isSpan(value.span) &&
  problems(value.load) &&
  dayParts(value.days) &&
  majority(value.majority) &&
  beyond(value.beyond) &&
  episodeLists(value.episodeLists);

const isServiceCheck = (value: unknown): value is ServiceCheck =>
  isObject(value) &&
  problems(value.problems) &&
  givens(value.given) &&
  (value.dayByDay === undefined || isDayByDay(value.dayByDay));

const isVersionRecord = (value: unknown): value is DocumentRecord =>
  isObject(value) &&
  Number.isSafeInteger(value.version) &&
  (value.version as number) >= 1 &&
  isString(value.content) &&
  HEX64.test(value.content);

const sitePaths = <T>(entry: Check<T>): Check<Record<string, T>> => {
  const entries = recordOf(entry);
  return (value): value is Record<string, T> =>
    entries(value) && Object.keys(value).every(isSitePath);
};

const stampFiles = sitePaths(fileState);

export const VALIDATORS: { [Name in PartName]: Check<StateParts[Name]> } = {
  owned: listOf((path): path is string => isString(path) && isSitePath(path)),
  versions: sitePaths(isVersionRecord),
  documents: sitePaths(
    tupleOf<[string, string, string]>(
      isString,
      isString,
      (digest): digest is string => isString(digest) && HEX64.test(digest),
    ),
  ),
  checks: recordOf(
    (entry): entry is RecordedCheck =>
      isObject(entry) && isString(entry.key) && isSpan(entry.span) && isServiceCheck(entry.check),
  ),
  digests: recordOf(fileState),
  services: recordOf(
    (entry): entry is ServiceRoutes =>
      isObject(entry) &&
      isString(entry.key) &&
      ROUTE_KEY.test(entry.key) &&
      listOf(isString)(entry.bearers),
  ),
  logos: sitePaths(isCount),
  stamp: (value): value is StoredStamp | null =>
    value === null ||
    (isObject(value) &&
      isString(value.check) &&
      isString(value.timeZone) &&
      isString(value.today) &&
      stampFiles(value.files)),
};

/** A part's sum, written beside it: any byte changed in it since is found. */
export function partSum(json: string): string {
  return createHash("sha256").update(json).digest("hex").slice(0, 32);
}
