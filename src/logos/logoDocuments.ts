import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { type ImageLibrary, imageLibrary } from "../load/logos/logoSourceImage.js";
import type { Broadcaster, Logo, LogoRecipe } from "../load/model/broadcaster.js";
import { InputError } from "../load/text/inputProblem.js";
import { makeLogo } from "./makeLogo.js";

/**
 * How long a logo file stays published after SI stopped naming it. TS 102 818 §10.5.1 asks
 * devices only to respect the HTTP expiry of what they fetch (the open SI: an hour), and sets no
 * refresh interval for SI, so radios that fetch SI once a day, or hold it over a night, exist;
 * 48 hours covers one such day plus one missed nightly build, and costs a few kilobytes.
 */
export const SUPERSEDED_LOGO_GRACE_MS = 48 * 60 * 60 * 1000;

/** A logo's path in out/, exactly as the build names them (and as the edge rules serve them). */
export const LOGO_FILE =
  /^logos\/(provider|services\/[a-z0-9]+|groups\/[a-z][a-z0-9-]*)\/\d+x\d+-[0-9a-f]{16}\.(png|jpg)$/;

/**
 * The logos a build publishes from sources, by their path in out/. A logo's name is a hash of
 * everything its bytes depend on, so its path is all the engine's plan needs to know of it.
 */
export function logoRecipes({ provider, services }: Broadcaster): Map<string, LogoRecipe> {
  const logos: Logo[] = [...provider.logos];
  for (const group of provider.serviceGroups) logos.push(...group.logos);
  for (const service of services) logos.push(...service.logos);
  const recipes = new Map<string, LogoRecipe>();
  for (const logo of logos) if (logo.made) recipes.set(logo.made.path, logo.made);
  return recipes;
}

/**
 * The bytes of the logos the plan makes, by path: made before the first file is written, so a
 * source that fails to make one stops the build with out/ untouched. The image library is
 * loaded only when there is one to make.
 */
export async function makeLogos(recipes: readonly LogoRecipe[]): Promise<Map<string, Buffer>> {
  const made = new Map<string, Buffer>();
  // By name without the owner's folder: services sharing a source and options share the bytes.
  const byName = new Map<string, Buffer>();
  for (const recipe of recipes) {
    const name = basename(recipe.path);
    const bytes = byName.get(name) ?? (await madeLogo(recipe, await imageLibrary()));
    byName.set(name, bytes);
    made.set(recipe.path, bytes);
  }
  return made;
}

async function madeLogo(recipe: LogoRecipe, library: ImageLibrary): Promise<Buffer> {
  try {
    return await makeLogo(recipe, await readFile(recipe.source.path), library);
  } catch (error) {
    const message = `${recipe.source.display} could not be made into the ${recipe.size} logo: ${(error as Error).message}`;
    throw new InputError([{ ...recipe.origin, severity: "error", message }], "the logo sources");
  }
}
