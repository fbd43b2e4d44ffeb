import { EXIT, type ExitCode } from "../exit/exitCodes.js";
import type { CommandIo } from "./commandIo.js";
import { countOf } from "./countOf.js";

export interface UploadListOptions {
  out: string;
  /** The record of the bucket's last complete upload (absent: a first upload). */
  since?: string | undefined;
  to: string;
  json?: boolean | undefined;
}

/** `spi-static upload-list`: what to put and delete in the documents' bucket, in order. */
export async function uploadListCommand(
  options: UploadListOptions,
  io: CommandIo,
): Promise<ExitCode> {
  const { planUpload, readUploadRecord, servedDocuments, writeUploadPlan } = await import(
    "../build/uploadList.js"
  );
  const uploaded = options.since === undefined ? undefined : await readUploadRecord(options.since);
  const plan = planUpload(await servedDocuments(options.out), uploaded);
  await writeUploadPlan(options.to, plan);
  const counts = {
    documents: plan.documents.length,
    serviceInformation: plan.serviceInformation.length,
    deletes: plan.deletes.length,
    served: plan.record.size,
  };
  if (options.json) {
    io.stdout(JSON.stringify({ ok: true, firstUpload: uploaded === undefined, ...counts }));
  } else {
    io.stdout(
      `spi-static: to put ${countOf(counts.documents, "document")}, then ${counts.serviceInformation} SI, ` +
        `then delete ${countOf(counts.deletes, "document")} (${counts.served} served${uploaded ? "" : "; no record: a first upload"}) → ${options.to}`,
    );
  }
  return EXIT.ok;
}
