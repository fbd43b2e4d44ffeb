import { UsageError } from "../exit/spiStaticError.js";
import { SPI_BASE } from "../site/siteContract.js";

/** The build would publish under another radiodnsHost than the one out/ serves. */
export class HostChangeError extends UsageError {}

const PI_HOST = new RegExp(`^${SPI_BASE.replaceAll(".", "\\.")}/id/([^/]+)/`);

/**
 * The host literal is part of every PI URL: a build that no longer publishes under a host whose
 * PI files out/ holds deletes them, so clients that know the old URLs get 404. That happens only
 * when asked (`allowed`). `inUse` are the FQDNs the build publishes PI under (each service's,
 * the provider's radiodnsHost or its own), so a service moving off a host it alone used is the
 * same change as the provider's host moving; PI files under a host still in use are not foreign.
 */
export function refuseHostChange(
  outDir: string,
  owned: ReadonlySet<string>,
  radiodnsHost: string,
  allowed: boolean,
  inUse: readonly string[] = [radiodnsHost],
): void {
  if (allowed) return;
  const published = new Set<string>();
  for (const path of owned) {
    const host = PI_HOST.exec(path)?.[1];
    if (host !== undefined) published.add(host);
  }
  for (const host of inUse) published.delete(host);
  if (published.size === 0) return;
  const now =
    inUse.length === 1 && inUse[0] === radiodnsHost
      ? `radiodnsHost is now ${radiodnsHost}`
      : `the FQDNs in use are now ${inUse.join(", ")}`;
  throw new HostChangeError(
    `${outDir} holds the PI files of ${[...published].sort().join(", ")}, but ${now}: ` +
      "building would unpublish every PI URL clients know; pass --change-host to do it anyway",
  );
}
