import { join } from "node:path";
import { debug } from "../debug/debugLog.js";
import { logoRecipes, makeLogos, SUPERSEDED_LOGO_GRACE_MS } from "../logos/logoDocuments.js";
import {
  afterHashing,
  type DocumentDecision,
  type PlanState,
  planDocument,
  type SettledDecision,
} from "./buildPlan.js";
import type { BuildState } from "./buildState.js";
import { seeUnchanged } from "./fileState.js";
import type { PublishableDocument } from "./publishSite.js";
import type { StateParts } from "./stateParts.js";

/** A logo as the plan decided it, `since` when it was first left out (superseded ones only). */
export interface LogoDecision {
  path: string;
  decision: DocumentDecision;
  since?: number;
}

/**
 * The plan for the logos (pure): each logo of this build decided like any document, from its
 * path (its name is a hash of everything its bytes depend on); each logo the last build
 * published that this one does not name is kept while `now` (the build's clock) is within the
 * grace period after the build that first left it out (the state's `logos` part), so a radio
 * holding an SI that named it still gets it, then left to be pruned. A superseded logo cannot
 * be made again: it is kept only while its file is the one recorded (by state, or by its bytes;
 * always by its bytes under --force).
 */
export function planLogos(
  state: PlanState,
  { documents, logos }: Pick<StateParts, "documents" | "logos">,
  current: readonly string[],
  now: number,
): LogoDecision[] {
  const named = new Set(current);
  const planned: LogoDecision[] = current.map((path) => ({
    path,
    decision: planDocument(state, path, logoInputs(path)),
  }));
  for (const [path, [inputs, file, digest]] of Object.entries(documents)) {
    if (named.has(path) || inputs !== logoInputs(path)) continue;
    // Never later than now: a state written under a --now ahead of the clock keeps no logo long.
    const since = Math.min(logos[path] ?? now, now);
    if (now - since >= SUPERSEDED_LOGO_GRACE_MS) continue;
    const recorded = { state: state.force ? "" : file, digest };
    planned.push({ path, decision: { render: "hash", recorded }, since });
  }
  return planned;
}

const logoInputs = (path: string) => `logo ${path}`;

/** A logo ready to publish, with the decision it was published under. */
export interface PlannedLogo {
  decision: SettledDecision;
  document: PublishableDocument;
}

/**
 * The engine's side of planLogos: settles each decision (a file whose state changed is hashed),
 * makes the logos to render (before anything is written), drops a superseded logo whose file
 * is not the one recorded, and records when the kept superseded ones were first left out in
 * the state (written when the build publishes).
 */
export async function planLogoDocuments(
  outDir: string,
  plan: PlanState,
  state: BuildState,
  broadcaster: Parameters<typeof logoRecipes>[0],
  now: number,
): Promise<PlannedLogo[]> {
  const started = performance.now();
  const recipes = logoRecipes(broadcaster);
  const settled = planLogos(plan, state, [...recipes.keys()], now).map((logo) => {
    const { decision } = logo;
    const seen =
      decision.render === "hash" && seeUnchanged(join(outDir, logo.path), decision.recorded);
    return { ...logo, decision: afterHashing(decision, seen || undefined) };
  });
  const toMake = settled.filter((logo) => logo.decision.render && logo.since === undefined);
  const made = await makeLogos(toMake.flatMap(({ path }) => recipes.get(path) ?? []));
  const logos: PlannedLogo[] = [];
  state.logos = {};
  for (const { path, decision, since } of settled) {
    const inputs = logoInputs(path);
    const content = made.get(path);
    if (!decision.render) {
      logos.push({ decision, document: { path, inputs, reused: decision.file } });
      if (since !== undefined) state.logos[path] = since;
    } else if (content) logos.push({ decision, document: { path, inputs, content } });
    else debug("logos", () => `${path}: superseded, and not as published: no longer kept`);
  }
  const kept = Object.keys(state.logos).length;
  debug(
    "logos",
    () =>
      `${recipes.size} logos from sources: ${toMake.length} made, ` +
      `${recipes.size - toMake.length} already published under their name` +
      (kept === 0
        ? ""
        : `; ${kept} superseded kept for ${SUPERSEDED_LOGO_GRACE_MS / 3_600_000} h`) +
      ` (${Math.round(performance.now() - started)} ms)`,
  );
  return logos;
}
