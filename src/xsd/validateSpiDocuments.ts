import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { validateXML } from "xmllint-wasm";

/** The official SPI 3.1 schema and its two imports, shipped in schema/xsd/ (see SOURCE.txt there). */
const schemaDir = fileURLToPath(new URL("../../schema/xsd/", import.meta.url));

export interface SpiDocument {
  /** Name used in error messages, e.g. the document's path under out/. */
  name: string;
  xml: string;
}

export interface SchemaViolation {
  document: string;
  line: number | null;
  message: string;
}

let schemaFiles: Promise<{ fileName: string; contents: string }[]> | undefined;

/** spi_31.xsd imports its dependencies by URL; xmllint-wasm has no network, so point them at the local copies. */
async function loadSchemaFiles() {
  const [spi, xml, georss] = await Promise.all(
    ["spi_31.xsd", "xml.xsd", "georss_10_stub.xsd"].map((file) =>
      readFile(`${schemaDir}${file}`, "utf8"),
    ),
  );
  const localSpi = (spi ?? "")
    .replace("http://www.w3.org/2001/xml.xsd", "xml.xsd")
    .replace("http://www.georss.org/xml/1.0/georss.xsd", "georss_10_stub.xsd");
  return [
    { fileName: "spi_31.xsd", contents: localSpi },
    { fileName: "xml.xsd", contents: xml ?? "" },
    { fileName: "georss_10_stub.xsd", contents: georss ?? "" },
  ];
}

/**
 * Validates documents against spi_31.xsd in one xmllint run (one run per file costs ~76 ms).
 * Returns every violation; an empty list means all documents are valid.
 */
export async function validateSpiDocuments(documents: SpiDocument[]): Promise<SchemaViolation[]> {
  if (documents.length === 0) return [];
  schemaFiles ??= loadSchemaFiles();
  const [schema, ...imports] = await schemaFiles;
  // xmllint sees flat in-memory files; number them so names with slashes cannot clash.
  const names = documents.map((_, i) => `doc${i}.xml`);
  const result = await validateXML({
    xml: documents.map((d, i) => ({ fileName: names[i] as string, contents: d.xml })),
    schema: schema as { fileName: string; contents: string },
    preload: imports,
    maxMemoryPages: 16 * 1024,
  });
  if (result.valid) return [];
  return result.errors.map((error) => {
    const index = error.loc ? names.indexOf(error.loc.fileName) : -1;
    return {
      document: documents[index]?.name ?? error.loc?.fileName ?? "?",
      line: error.loc?.lineNumber ?? null,
      message: error.message,
    };
  });
}
