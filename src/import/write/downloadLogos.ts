import { lstat, readFile } from "node:fs/promises";
import { join } from "node:path";
import { LOGO_SIZES, type LogoSizeName } from "../../load/formats/logoSizes.js";
import { imageLibrary } from "../../load/logos/logoSourceImage.js";
import type { LogoInput } from "../../load/schema/fields.js";
import type { LogoSourceInput } from "../../load/schema/logoSourceInput.js";
import type { ProviderInput, ServiceGroupInput } from "../../load/schema/providerSchema.js";
import type { ServiceInput } from "../../load/schema/serviceSchema.js";
import type { ImportNote } from "../importNote.js";
import type { ImportedData } from "../map/importFeed.js";
import type { RunDeadline } from "../read/runDeadline.js";

/** The largest logo file fetched: a data file is read up to 2 MB (load/dataFolder.ts). */
const MAX_LOGO_BYTES = 2 * 1024 * 1024;

/** An image to write into the data folder, relative to it. */
export interface DownloadedFile {
  path: string;
  bytes: Buffer;
}

interface Fetched {
  bytes: Buffer;
  format: "png" | "jpeg";
  width: number;
  height: number;
}

/**
 * What the import read: the folders given, or a live API's root. A site spi-static built
 * publishes its logos under its discovery host, the host it will be served from again after the
 * rebuild replaces it: they are taken from the copy being imported (a folder's `logos/`, the
 * API's), not from that host.
 */
export type ImportedSite = { folders: readonly string[] } | { apiRoot: string };

/**
 * `import --download-logos`: each provider's, service group's and service's logos fetched into the data folder
 * and named as a `logo` source (docs/logos.md) instead of by URL — the largest square one as the
 * source, each other expected size as the image drawn for it. An owner keeps its URLs, with a
 * note, when a logo cannot be fetched or is not the size it says, or when the sizes the feed
 * lacks cannot be made from its largest square logo. Logos at other sizes stay URLs.
 */
export async function downloadLogos(
  data: ImportedData,
  site: ImportedSite,
  deadline: RunDeadline,
  notes: ImportNote[],
): Promise<{ data: ImportedData; files: DownloadedFile[] }> {
  const files: DownloadedFile[] = [];
  const { host, httpsPort } = data.provider.discovery ?? {};
  const imageAt = (url: string) => {
    const path = host === undefined ? undefined : siteLogoPath(url, host, httpsPort);
    if (path === undefined) return fetchImage(url, deadline);
    if ("folders" in site) return readSiteImage(site.folders, path);
    return fetchImage(new URL(`.${path}`, `${site.apiRoot.replace(/\/*$/, "")}/`).href, deadline);
  };
  const own = <T extends LogoOwner>(input: T, folder: string, origin: string) =>
    ownLogos(input, folder, origin, imageAt, notes, files);
  const provider = await own(data.provider, "provider", "the provider");
  if (provider.serviceGroups) {
    const groups: Record<string, ServiceGroupInput> = {};
    for (const [id, group] of Object.entries(provider.serviceGroups)) {
      groups[id] = await own(group, `groups/${id}`, `service group ${id}`);
    }
    provider.serviceGroups = groups;
  }
  const services = [];
  for (const entry of data.services) {
    const { id } = entry.service;
    const service = await own(entry.service, `services/${id}`, `service ${id}`);
    services.push({ ...entry, service });
  }
  return { data: { provider, services }, files };
}

type LogoOwner = ProviderInput | ServiceInput | ServiceGroupInput;

async function ownLogos<T extends LogoOwner>(
  input: T,
  folder: string,
  origin: string,
  imageAt: (url: string) => Promise<Fetched | string>,
  notes: ImportNote[],
  files: DownloadedFile[],
): Promise<T> {
  const logos = input.logos ?? [];
  const keep = (why: string) => {
    notes.push({ origin, message: `logos kept as URLs: ${why}` });
    return input;
  };
  if (logos.length === 0) return input;
  const dims = (logo: LogoInput) => logo.size.split("x").map(Number) as [number, number];
  const squares = logos.filter((logo) => dims(logo)[0] === dims(logo)[1]);
  const source = squares.sort((a, b) => dims(b)[0] - dims(a)[0])[0];
  if (!source) return keep("the feed has no square logo to make the other sizes from");
  const drawn = logos.filter(
    (logo) => logo !== source && LOGO_SIZES.some((size) => size.name === logo.size),
  );
  const fetched = new Map<LogoInput, Fetched>();
  for (const logo of [source, ...drawn]) {
    const image = await imageAt(logo.url);
    if (typeof image === "string") return keep(`${logo.url} ${image}`);
    const [width, height] = dims(logo);
    if (image.width !== width || image.height !== height) {
      return keep(`${logo.url} is ${image.width}x${image.height}, not ${logo.size}`);
    }
    const fixed = LOGO_SIZES.find((size) => size.name === logo.size)?.type !== "logo_unrestricted";
    if (logo !== source && fixed && image.format !== "png") {
      return keep(`${logo.url} is a JPEG; the ${logo.size} logo must be a PNG`);
    }
    fetched.set(logo, image);
  }
  const [side] = dims(source);
  const given = new Set([source, ...drawn].map((logo) => logo.size));
  const unmade = LOGO_SIZES.filter((size) => !given.has(size.name)).find(
    (size) => Math.min(size.width / side, size.height / side) > 1,
  );
  if (unmade) {
    return keep(`its largest square logo (${source.size}) is too small to make ${unmade.name}`);
  }
  const pathOf = (logo: LogoInput) =>
    `logos/${folder}/${logo.size}.${fetched.get(logo)?.format === "jpeg" ? "jpg" : "png"}`;
  for (const [logo, image] of fetched) files.push({ path: pathOf(logo), bytes: image.bytes });
  const sizes = Object.fromEntries(drawn.map((logo) => [logo.size as LogoSizeName, pathOf(logo)]));
  const logo: LogoSourceInput =
    drawn.length > 0 ? { source: pathOf(source), sizes } : pathOf(source);
  // Logos at other sizes (1024x768, say) stay URLs beside the source.
  const { logos: _all, ...rest } = input;
  const others = logos.filter((logo) => !fetched.has(logo));
  return { ...rest, ...(others.length > 0 ? { logos: others } : {}), logo } as T;
}

/** The image at `url`, or why it cannot be had. */
async function fetchImage(url: string, deadline: RunDeadline): Promise<Fetched | string> {
  let bytes: Buffer;
  if (deadline.passed()) return `was not fetched: ${deadline.spent}`;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(deadline.left()) });
    if (response.status !== 200) {
      await response.body?.cancel();
      return `answered ${response.status}`;
    }
    const length = Number(response.headers.get("content-length") ?? 0);
    if (length > MAX_LOGO_BYTES) {
      await response.body?.cancel();
      return "is larger than 2 MB";
    }
    bytes = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    if (deadline.passed()) return `was not fetched: ${deadline.spent}`;
    return `could not be fetched (${(error as Error).message})`;
  }
  return imageOf(bytes);
}

/**
 * The path below the site of a logo it published (`https://<host>[:port]/logos/…`), when `url`
 * is one: what the import's copy of the site holds at that path.
 */
function siteLogoPath(
  url: string,
  host: string,
  httpsPort: number | undefined,
): string | undefined {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed?.protocol !== "https:" || parsed.hostname !== host.toLowerCase()) return undefined;
  if (Number(parsed.port || 443) !== (httpsPort ?? 443)) return undefined;
  // The URL parser has resolved dot segments; only plain names go into a file path.
  return /^\/logos(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)+$/.test(parsed.pathname)
    ? parsed.pathname
    : undefined;
}

/**
 * The image at `path` below the first of the imported folders that has it as a regular file,
 * reached through folders only: a link on the way is not followed (it could lead anywhere).
 */
async function readSiteImage(folders: readonly string[], path: string): Promise<Fetched | string> {
  if (folders.length === 0) return "is on the site imported, but no folder of it was given";
  const parts = path.split("/").filter(Boolean);
  for (const folder of folders) {
    const file = join(folder, ...parts);
    const infos = await Promise.all(
      parts.map((_, depth) =>
        lstat(join(folder, ...parts.slice(0, depth + 1))).catch(() => undefined),
      ),
    );
    const last = infos.at(-1);
    if (!last?.isFile() || !infos.slice(0, -1).every((info) => info?.isDirectory())) continue;
    if (last.size > MAX_LOGO_BYTES) return `(${file}) is larger than 2 MB`;
    return imageOf(await readFile(file));
  }
  return `is not in the imported folder (${folders.join(", ")}) at ${parts.join("/")}`;
}

/** What the bytes are: a PNG or JPEG and its size, or why not. */
async function imageOf(bytes: Buffer): Promise<Fetched | string> {
  if (bytes.length > MAX_LOGO_BYTES) return "is larger than 2 MB";
  try {
    const library = await imageLibrary();
    const { format, width = 0, height = 0 } = await library.open(bytes).metadata();
    if (format !== "png" && format !== "jpeg") return `is ${format ?? "no image"}, not PNG or JPEG`;
    return { bytes, format, width, height };
  } catch {
    return "is not an image that can be decoded";
  }
}
