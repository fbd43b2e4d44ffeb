import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { debug } from "../debug/debugLog.js";
import { type ImageLibrary, imageLibrary } from "../load/logos/logoSourceImage.js";
import type { Broadcaster, Logo, LogoRecipe } from "../load/model/broadcaster.js";
import { InputError } from "../load/text/inputProblem.js";
import type { PlannedDocument } from "../site/siteContract.js";
import { makeLogo } from "./makeLogo.js";
import { SUPERSEDED_LOGO_GRACE_MS, supersededLogos } from "./supersededLogos.js";

/**
 * The logos a build publishes from sources, as documents of the site, each with its bytes ready:
 * made before the first file is written, so a source that fails to make one stops the build
 * with out/ untouched. A logo's name is a hash of everything its bytes depend on, so one already
 * published under its name, still the bytes the last build published there (`published`: their
 * digests, from the state's documents record), is taken as it is: an unchanged logo is never
 * made again, and a nightly build with unchanged logos makes none (SPI_STATIC_DEBUG=logos says
 * how many were made); a damaged one, or one no record vouches for, is made again; `force`
 * (--force) trusts no published one.
 * Logos published before under other names stay for a grace period (supersededLogos.ts), so a
 * radio holding the SI that named them still gets them; `now` is the real clock there.
 */
export async function planLogoDocuments(
  broadcaster: Broadcaster,
  outDir: string,
  {
    force = false,
    now = Date.now(),
    published = new Map(),
  }: { force?: boolean; now?: number; published?: ReadonlyMap<string, string> } = {},
): Promise<PlannedDocument[]> {
  const recipes = new Map<string, LogoRecipe>();
  for (const logo of logosOf(broadcaster)) {
    if (logo.made) recipes.set(logo.made.path, logo.made);
  }
  const superseded = await supersededLogos(outDir, new Set(recipes.keys()), now);
  if (recipes.size === 0 && superseded.length === 0) return [];
  const started = performance.now();
  const counts = { made: 0, published: 0 };
  const documents: PlannedDocument[] = [...superseded];
  // By name without the owner's folder: services sharing a source and options share the bytes.
  const madeHere = new Map<string, Buffer>();
  for (const recipe of recipes.values()) {
    const recorded = recipe.asIs ? recipe.source.digest : published.get(recipe.path);
    let bytes = force ? undefined : await publishedLogo(join(outDir, recipe.path), recorded);
    if (bytes) counts.published++;
    else {
      const name = basename(recipe.path);
      bytes = madeHere.get(name) ?? (await madeLogo(recipe, await imageLibrary()));
      madeHere.set(name, bytes);
      counts.made++;
    }
    const content = bytes;
    documents.push({ path: recipe.path, inputs: `logo ${recipe.path}`, render: () => content });
  }
  debug(
    "logos",
    () =>
      `${recipes.size} logos from sources: ${counts.made} made, ${counts.published} already ` +
      `published under their name` +
      (superseded.length === 0
        ? ""
        : `; ${superseded.length} superseded kept for ${SUPERSEDED_LOGO_GRACE_MS / 3_600_000} h`) +
      ` (${Math.round(performance.now() - started)} ms)`,
  );
  return documents;
}

function* logosOf({ provider, services }: Broadcaster): Generator<Logo> {
  yield* provider.logos;
  for (const group of provider.serviceGroups) yield* group.logos;
  for (const service of services) yield* service.logos;
}

/**
 * The published file at `path` when its bytes are `digest`'s: for a hand-drawn image the
 * source's, for a made one those the last build published. Checked on the bytes alone, so a
 * nightly with nothing to make never loads the image library.
 */
async function publishedLogo(
  path: string,
  digest: string | undefined,
): Promise<Buffer | undefined> {
  const bytes = digest === undefined ? undefined : await readFile(path).catch(() => undefined);
  if (!bytes) return undefined;
  return createHash("sha256").update(bytes).digest("hex") === digest ? bytes : undefined;
}

async function madeLogo(recipe: LogoRecipe, library: ImageLibrary): Promise<Buffer> {
  try {
    return await makeLogo(recipe, await readFile(recipe.source.path), library);
  } catch (error) {
    const message = `${recipe.source.display} could not be made into the ${recipe.size} logo: ${(error as Error).message}`;
    throw new InputError([{ ...recipe.origin, severity: "error", message }], "the logo sources");
  }
}
