import { writeFile } from "node:fs/promises";
import { lowerForNjs } from "./lowerForNjs.js";
import { LOWERED_MODULE_FILE, loweredModuleFile, njsModuleSource } from "./njsModule.js";

/**
 * `npm run build`'s last step, run from dist/: the njs module lowered once, here, so that an
 * installed package needs no Babel (37 MB) to write it (njsModule.ts reads this file).
 */
const source = njsModuleSource();
await writeFile(
  new URL(LOWERED_MODULE_FILE, import.meta.url),
  loweredModuleFile(source, await lowerForNjs(source)),
);
