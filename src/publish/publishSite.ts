import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { SiteDocument } from "../render/renderSite.js";
import { writeFileAtomically } from "./writeFileAtomically.js";

export interface PublishSummary {
  rendered: number;
  written: number;
  unchanged: number;
}

/** The publish stage: writes every document that differs from what is already in `outDir`. */
export async function publishSite(outDir: string, documents: Iterable<SiteDocument>): Promise<PublishSummary> {
  const summary: PublishSummary = { rendered: 0, written: 0, unchanged: 0 };
  for (const document of documents) {
    summary.rendered++;
    const target = join(outDir, document.path);
    const current = await readFile(target, "utf8").catch(() => undefined);
    if (current === document.content) {
      summary.unchanged++;
      continue;
    }
    await writeFileAtomically(target, document.content);
    summary.written++;
  }
  return summary;
}
