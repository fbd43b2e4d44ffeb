import { UsageError } from "../exit/spiStaticError.js";
import { SPI_BASE } from "../site/siteContract.js";
import { readOwnedPaths } from "./ownershipManifest.js";

/** The build would publish under another radiodnsHost than the one out/ serves. */
export class HostChangeError extends UsageError {}

const PI_HOST = new RegExp(`^${SPI_BASE.replaceAll(".", "\\.")}/id/([^/]+)/`);

/**
 * The host literal is part of every PI URL: a build under a new one deletes every published PI
 * file, so clients that know the old URLs get 404. That happens only when asked (`allowed`).
 */
export function refuseHostChange(outDir: string, radiodnsHost: string, allowed: boolean): void {
  if (allowed) return;
  const published = new Set<string>();
  for (const path of readOwnedPaths(outDir)) {
    const host = PI_HOST.exec(path)?.[1];
    if (host !== undefined) published.add(host);
  }
  published.delete(radiodnsHost);
  if (published.size === 0) return;
  throw new HostChangeError(
    `${outDir} holds the PI files of ${[...published].sort().join(", ")}, but radiodnsHost is now ${radiodnsHost}: ` +
      "building would unpublish every PI URL clients know; pass --change-host to do it anyway",
  );
}
