import { copyFile, cp, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

const EXAMPLE = new URL("../../data/", import.meta.url).pathname;

export interface LargerDatasetOptions {
  services: number;
  /** Changes every document: the originator is in every PI and in the SI. */
  originator?: string;
}

/**
 * The example broadcaster scaled up: its services copied round-robin under new ids
 * (news0, pop0, …, news1, …) and bearers, so a build has hundreds of documents to write.
 */
export async function writeLargerDataset(dataDir: string, options: LargerDatasetOptions) {
  await mkdir(join(dataDir, "services"), { recursive: true });
  await mkdir(join(dataDir, "schedules"), { recursive: true });
  const provider = await readFile(join(EXAMPLE, "provider.yaml"), "utf8");
  await writeFile(
    join(dataDir, "provider.yaml"),
    options.originator
      ? provider.replace(/^originator: .*$/m, `originator: ${options.originator}`)
      : provider,
  );
  for (const name of await readdir(EXAMPLE)) {
    if (name.startsWith("keys")) await copyFile(join(EXAMPLE, name), join(dataDir, name));
  }
  // The logo sources the provider and services name (each copy's logos are made from its base's).
  await cp(join(EXAMPLE, "logos"), join(dataDir, "logos"), { recursive: true });
  const bases = (await readdir(join(EXAMPLE, "services")))
    .map((f) => f.replace(/\.yaml$/, ""))
    .sort();
  for (let i = 0; i < options.services; i++) {
    const base = bases[i % bases.length] as string;
    const id = `${base}${Math.floor(i / bases.length)}`;
    const service = await readFile(join(EXAMPLE, "services", `${base}.yaml`), "utf8");
    // Each copy its own SId and PI code (country id 4, as the GCC 4e1 says): no shared bearers.
    const code = `4${(i + 1).toString(16).padStart(3, "0")}`;
    await writeFile(
      join(dataDir, "services", `${id}.yaml`),
      service
        .replace(/^id: .*$/m, `id: ${id}`)
        .replace(/\b(dab:\w{3}\.\w{4}\.)\w{4}(\.\w+)/g, `$1${code}$2`)
        .replace(/\b(fm:\w{3}\.)\w{4}(\.\d{5})/g, `$1${code}$2`),
    );
    await copyFile(
      join(EXAMPLE, "schedules", `${base}.yaml`),
      join(dataDir, "schedules", `${id}.yaml`),
    );
  }
}
